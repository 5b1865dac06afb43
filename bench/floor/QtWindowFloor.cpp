// Floor of the client-start benchmark: the least a Qt Widgets program does to show a window
// (a QMainWindow with a label), timed by the same probe as the client (app/StartupProbe).
#include "StartupProbe.h"

#include <QApplication>
#include <QLabel>
#include <QMainWindow>

using namespace Qt::StringLiterals;

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QMainWindow window;
    window.setCentralWidget(new QLabel(u"floor"_s, &window));
    window.resize(1100, 700);
    cardhour::app::installStartupProbe(&window);
    window.show();
    return QApplication::exec();
}
