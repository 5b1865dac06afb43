// ClientStyle: a window with a menu bar, a tool bar and a titled group box paints its first frame
// under Fusion without loading one image-format plugin, the overflow arrows are icons from the
// client's set, and every other standard icon is still the base style's.
#include "ClientStyle.h"

#include <QApplication>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QStyleFactory>
#include <QTest>
#include <QToolBar>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
using cardhour::ui::ClientStyle;

namespace {

// The Qt plugins this process has mapped, from /proc/self/maps.
QStringList mappedImagePlugins()
{
    QFile maps(u"/proc/self/maps"_s);
    if (!maps.open(QIODevice::ReadOnly))
        return {u"(cannot read /proc/self/maps)"_s};
    QStringList found;
    for (const QByteArray &line : maps.readAll().split('\n'))
        if (line.contains("/imageformats/") || line.contains("/iconengines/"))
            found << QString::fromUtf8(line.mid(line.lastIndexOf(' ') + 1));
    found.removeDuplicates();
    return found;
}

} // namespace

class TestClientStyle : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firstFrameLoadsNoImagePlugin()
    {
        QApplication::setStyle(new ClientStyle(QStyleFactory::create(u"Fusion"_s)));
        QMainWindow window;
        window.menuBar()->addMenu(u"&File"_s);
        window.addToolBar(u"Tools"_s)->addAction(u"Launch"_s);
        auto *central = new QWidget(&window);
        auto *layout = new QVBoxLayout(central);
        auto *box = new QGroupBox(u"Connect to a provider"_s, central);
        (new QVBoxLayout(box))->addWidget(new QLabel(u"inside"_s, box));
        layout->addWidget(box);
        window.setCentralWidget(central);
        window.resize(400, 300);
        const QImage frame = window.grab().toImage();
        QVERIFY(!frame.isNull());
        const QStringList plugins = mappedImagePlugins();
        QVERIFY2(plugins.isEmpty(), qPrintable(plugins.join(u", "_s)));
        // The frame is drawn: the box's border differs from the window behind it.
        const QPoint corner = box->mapTo(&window, QPoint(box->width() / 2, box->height() - 1));
        QVERIFY(frame.pixelColor(corner) != frame.pixelColor(QPoint(2, window.height() - 2)));
    }

    void overflowArrowsComeFromTheIconSet()
    {
        ClientStyle style(QStyleFactory::create(u"Fusion"_s));
        for (QStyle::StandardPixmap which : {QStyle::SP_ToolBarHorizontalExtensionButton,
                                             QStyle::SP_ToolBarVerticalExtensionButton}) {
            const QIcon icon = style.standardIcon(which);
            QVERIFY(!icon.isNull());
            QVERIFY(!icon.pixmap(16, 16).toImage().isNull());
        }
        // The others are Fusion's own.
        QVERIFY(!style.standardIcon(QStyle::SP_DialogOkButton).isNull());
        QCOMPARE(style.baseStyle()->name(), u"fusion"_s);
    }
};

QTEST_MAIN(TestClientStyle)
#include "tst_clientstyle.moc"
