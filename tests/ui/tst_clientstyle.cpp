// ClientStyle: a window with a menu bar, a tool bar and a titled group box paints its first frame
// under Fusion without loading one image-format plugin, the overflow arrows are icons from the
// client's set, and every other standard icon is still the base style's.
#include "ClientStyle.h"
#include "Notice.h"
#include "theme/Design.h"

#include <QApplication>
#include <QFile>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStyleFactory>
#include <QTest>
#include <QToolBar>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
using cardhour::ui::ButtonRole;
using cardhour::ui::ClientStyle;
using cardhour::ui::Design;
using cardhour::ui::Notice;

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

    // The design system's roles as painted: the primary button in the accent with white text,
    // a destructive one in red, a plain one on the button colour; in light and in dark.
    void buttonRolesArePainted()
    {
        for (const bool dark : {false, true}) {
            const QPalette palette = Design::palette(dark);
            QApplication::setPalette(palette);
            QWidget row;
            auto *layout = new QHBoxLayout(&row);
            auto *primary = new QPushButton(u"Launch"_s, &row);
            auto *destructive = new QPushButton(u"Delete"_s, &row);
            auto *plain = new QPushButton(u"Cancel"_s, &row);
            Design::setPrimary(primary);
            Design::setButtonRole(destructive, ButtonRole::Destructive);
            for (QPushButton *button : {primary, destructive, plain}) {
                button->setMinimumSize(120, 32);
                layout->addWidget(button);
            }
            row.show();
            QVERIFY(QTest::qWaitForWindowExposed(&row));
            // A point inside each button, left of its text.
            auto fillOf = [](QPushButton *button) {
                return button->grab().toImage().pixelColor(6, button->height() / 2);
            };
            QCOMPARE(fillOf(primary), Design::accentFill(palette));
            QCOMPARE(fillOf(destructive), Design::destructiveFill(palette));
            QCOMPARE(fillOf(plain), palette.color(QPalette::Button));
        }
    }

    // A message box says one sentence; the rest waits behind Show Details.
    void noticeShowsOneSentence()
    {
        using Split = std::pair<QString, QString>;
        QCOMPARE(
            Notice::splitFirstSentence(u"Not launched: your balance is ¥3.80. Top up first."_s),
            Split(u"Not launched: your balance is ¥3.80."_s, u"Top up first."_s));
        QCOMPARE(Notice::splitFirstSentence(u"One sentence at ¥3.80/h only."_s),
                 Split(u"One sentence at ¥3.80/h only."_s, QString()));
        QCOMPARE(Notice::splitFirstSentence(u"第一句。第二句。"_s),
                 Split(u"第一句。"_s, u"第二句。"_s));
        QCOMPARE(Notice::splitFirstSentence(u"Could not connect\nConnection refused"_s),
                 Split(u"Could not connect"_s, u"Connection refused"_s));
        QMessageBox *box = Notice::fromMessage(nullptr, Notice::Kind::Error, u"Launch"_s,
                                               u"It failed. Here is why: reasons."_s);
        QCOMPARE(box->text(), u"Launch"_s);
        QCOMPARE(box->informativeText(), u"It failed."_s);
        QCOMPARE(box->detailedText(), u"Here is why: reasons."_s);
        delete box;
    }
};

QTEST_MAIN(TestClientStyle)
#include "tst_clientstyle.moc"
