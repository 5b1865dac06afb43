// AfterPaint: work that waits for a widget's next frame runs once after that paint, never before
// it, once per arm(), and never after the widget is gone.
#include "AfterPaint.h"

#include <QPaintEvent>
#include <QPointer>
#include <QTest>
#include <QWidget>

#include <memory>

using namespace cardhour::ui;

class TestAfterPaint : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runsOnceAfterTheNextPaint()
    {
        QWidget widget;
        widget.resize(200, 100);
        int runs = 0;
        auto *afterPaint = new AfterPaint(&widget, [&runs] { ++runs; });
        afterPaint->arm();
        afterPaint->arm(); // a second arm before the paint changes nothing
        QCOMPARE(runs, 0);
        QCoreApplication::processEvents(); // no paint yet: the widget is not shown
        QCOMPARE(runs, 0);
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        QTRY_COMPARE(runs, 1);
        QVERIFY(!afterPaint->isArmed());
        // Unarmed, further frames run nothing.
        widget.repaint();
        QTest::qWait(20);
        QCOMPARE(runs, 1);
        // Armed again: once more after the next frame.
        afterPaint->arm();
        widget.update();
        QTRY_COMPARE(runs, 2);
        widget.repaint();
        QTest::qWait(20);
        QCOMPARE(runs, 2);
    }

    void paintsOfOtherWidgetsDoNotCount()
    {
        QWidget window;
        auto *child = new QWidget(&window);
        child->resize(50, 50);
        window.resize(200, 100);
        int runs = 0;
        auto *afterPaint = new AfterPaint(child, [&runs] { ++runs; });
        afterPaint->arm();
        child->hide();
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(20);
        QCOMPARE(runs, 0); // the window painted, the hidden child did not
        child->show();
        QTRY_COMPARE(runs, 1);
    }

    void neverRunsAfterTheWidgetIsGone()
    {
        int runs = 0;
        auto widget = std::make_unique<QWidget>();
        QPointer<AfterPaint> afterPaint = new AfterPaint(widget.get(), [&runs] { ++runs; });
        afterPaint->arm();
        // A frame is painted (the work is now queued), then the widget goes before the loop turns.
        QPaintEvent paint(QRect(0, 0, 10, 10));
        QCoreApplication::sendEvent(widget.get(), &paint);
        widget.reset();
        QVERIFY(afterPaint.isNull());
        QTest::qWait(20);
        QCOMPARE(runs, 0);
    }
};

QTEST_MAIN(TestAfterPaint)
#include "tst_afterpaint.moc"
