#include "StartupProbe.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFile>
#include <QTimer>
#include <QWidget>

#include <chrono>
#include <cstdio>
#include <ctime>

using namespace Qt::StringLiterals;

namespace cardhour::app {

namespace {

qint64 residentKib()
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

class FirstPaintFilter : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && !m_seen) {
            m_seen = true;
            // A zero timer fires once the paint is done and the loop takes events again:
            // the window is painted and interactive.
            QTimer::singleShot(0, this, [] {
                const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now().time_since_epoch())
                                    .count();
                // CPU time too: on a loaded machine it says what the wall clock cannot.
                const long long cpuNs =
                    static_cast<long long>(std::clock()) * (1000000000LL / CLOCKS_PER_SEC);
                std::printf("cardhour-bench painted_ns=%lld rss_kib=%lld cpu_ns=%lld\n",
                            static_cast<long long>(ns), static_cast<long long>(residentKib()),
                            cpuNs);
                std::fflush(stdout);
                QCoreApplication::quit();
            });
        }
        return QObject::eventFilter(watched, event);
    }

private:
    bool m_seen = false;
};

} // namespace

void installStartupProbe(QWidget *window)
{
    if (qEnvironmentVariable("CARDHOUR_BENCH_STARTUP") != u"1"_s)
        return;
    window->installEventFilter(new FirstPaintFilter(window));
}

} // namespace cardhour::app
