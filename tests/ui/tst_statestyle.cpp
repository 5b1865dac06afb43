// StateStyle: every state has its own colour in a light and in a dark palette, each readable on
// that palette's window (3:1, the minimum for graphics), its own drawn icon, and a sentence for
// screen readers; the instance table shows them on the state column. The icons are saved as
// statestyle-light.png / statestyle-dark.png under <build>/screenshots.
#include "Format.h"
#include "InstanceTableModel.h"
#include "StateStyle.h"
#include "api/Models.h"

#include <QApplication>
#include <QDir>
#include <QIcon>
#include <QImage>
#include <QJsonObject>
#include <QPainter>
#include <QPalette>
#include <QSet>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;
using namespace cardhour;
using core::InstanceState;
using ui::StateStyle;

namespace {

const QList<InstanceState> kStates = {InstanceState::Creating,  InstanceState::Starting,
                                      InstanceState::Running,   InstanceState::Stopping,
                                      InstanceState::Stopped,   InstanceState::Failed,
                                      InstanceState::Terminated};

QPalette paletteWithWindow(const QColor &window, const QColor &text)
{
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, window);
    p.setColor(QPalette::Text, text);
    return p;
}

double luminance(const QColor &c)
{
    const auto channel = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace

class TestStateStyle : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void distinctReadableColours_data();
    void distinctReadableColours();
    void iconsDifferAndFollowTheTheme();
    void accessibleTextNamesTheState();
    void tableStateColumnUsesIt();
};

void TestStateStyle::distinctReadableColours_data()
{
    QTest::addColumn<QColor>("window");
    QTest::addColumn<QColor>("text");
    QTest::addColumn<bool>("dark");
    QTest::newRow("white") << QColor(Qt::white) << QColor(Qt::black) << false;
    QTest::newRow("light grey") << QColor(0xef, 0xef, 0xef) << QColor(Qt::black) << false;
    QTest::newRow("fusion dark") << QColor(0x35, 0x35, 0x35) << QColor(Qt::white) << true;
    QTest::newRow("near black") << QColor(0x1e, 0x1e, 0x1e) << QColor(Qt::white) << true;
}

void TestStateStyle::distinctReadableColours()
{
    QFETCH(QColor, window);
    QFETCH(QColor, text);
    QFETCH(bool, dark);
    const QPalette palette = paletteWithWindow(window, text);
    QCOMPARE(StateStyle::isDark(palette), dark);
    QSet<QRgb> seen;
    for (const InstanceState state : kStates) {
        const QColor c = StateStyle::colour(state, palette);
        QVERIFY2(!seen.contains(c.rgb()), qPrintable(c.name()));
        seen.insert(c.rgb());
        const double ratio = contrast(c, window);
        QVERIFY2(
            ratio >= 3.0,
            qPrintable(u"%1 on %2: %3:1"_s.arg(c.name(), window.name()).arg(ratio, 0, 'f', 2)));
    }
    // The two themes do not share one set: a colour readable on white is too dark on black.
    const QPalette other = dark ? paletteWithWindow(Qt::white, Qt::black)
                                : paletteWithWindow(QColor(0x1e, 0x1e, 0x1e), Qt::white);
    QVERIFY(StateStyle::colour(InstanceState::Running, palette)
            != StateStyle::colour(InstanceState::Running, other));
}

void TestStateStyle::iconsDifferAndFollowTheTheme()
{
    for (const bool dark : {false, true}) {
        const QPalette palette = dark ? paletteWithWindow(QColor(0x2b, 0x2b, 0x2b), Qt::white)
                                      : paletteWithWindow(QColor(0xf5, 0xf5, 0xf5), Qt::black);
        QImage sheet(kStates.size() * 40 + 8, 48, QImage::Format_ARGB32);
        sheet.fill(palette.color(QPalette::Window));
        QPainter painter(&sheet);
        QSet<QByteArray> images;
        int x = 8;
        for (const InstanceState state : kStates) {
            const QImage icon = StateStyle::pixmap(state, palette, 32).toImage();
            QVERIFY(!icon.isNull());
            // Something is drawn, in the state's colour.
            bool painted = false;
            for (int y = 0; y < icon.height() && !painted; ++y)
                for (int px = 0; px < icon.width() && !painted; ++px)
                    painted = qAlpha(icon.pixel(px, y)) > 200
                        && QColor(icon.pixel(px, y)).rgb()
                            == StateStyle::colour(state, palette).rgb();
            QVERIFY2(painted, qPrintable(ui::Format::state(state, {})));
            images.insert(
                QByteArray(reinterpret_cast<const char *>(icon.constBits()), icon.sizeInBytes()));
            QVERIFY(!StateStyle::icon(state, palette).isNull());
            painter.drawImage(x, 8, icon);
            x += 40;
        }
        painter.end();
        QCOMPARE(images.size(), kStates.size()); // no two states look the same
        const QString path = QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u"/statestyle-"_s
            + (dark ? u"dark"_s : u"light"_s) + u".png"_s;
        QVERIFY(QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR)));
        QVERIFY2(sheet.save(path), qPrintable(path));
    }
    // Ring, dot, half ring, square, cross, dash: shape, not only colour.
    QSet<int> shapes;
    for (const InstanceState state : kStates)
        shapes.insert(int(StateStyle::shape(state)));
    QCOMPARE(shapes.size(), 6); // creating and starting share the ring, in two colours
}

void TestStateStyle::accessibleTextNamesTheState()
{
    for (const InstanceState state : kStates) {
        const QString text = StateStyle::accessibleText(state, {});
        QVERIFY2(text.contains(ui::Format::state(state, {})), qPrintable(text));
    }
    // A state this client does not know yet is read out in the provider's word.
    QVERIFY(StateStyle::accessibleText(InstanceState::Unknown, u"hibernating"_s)
                .contains(u"hibernating"_s));
}

void TestStateStyle::tableStateColumnUsesIt()
{
    ui::InstanceTableModel model;
    core::Instance running = core::Instance::fromJson(
        QJsonObject{{u"id"_s, u"a"_s}, {u"name"_s, u"alpha"_s}, {u"state"_s, u"running"_s}});
    core::Instance failed = core::Instance::fromJson(
        QJsonObject{{u"id"_s, u"b"_s}, {u"name"_s, u"beta"_s}, {u"state"_s, u"failed"_s}});
    model.setInstances({running, failed});
    const QPalette palette = QApplication::palette();
    const QModelIndex a = model.index(0, ui::InstanceTableModel::StateColumn);
    const QModelIndex b = model.index(1, ui::InstanceTableModel::StateColumn);
    QCOMPARE(a.data(Qt::ForegroundRole).value<QColor>(),
             StateStyle::colour(InstanceState::Running, palette));
    QCOMPARE(b.data(Qt::ForegroundRole).value<QColor>(),
             StateStyle::colour(InstanceState::Failed, palette));
    QVERIFY(!a.data(Qt::DecorationRole).value<QIcon>().isNull());
    QCOMPARE(a.data(Qt::AccessibleTextRole).toString(),
             StateStyle::accessibleText(InstanceState::Running, u"running"_s));
    // Other columns keep the palette's own text colour.
    QVERIFY(!model.index(0, ui::InstanceTableModel::NameColumn).data(Qt::ForegroundRole).isValid());
}

QTEST_MAIN(TestStateStyle)
#include "tst_statestyle.moc"
