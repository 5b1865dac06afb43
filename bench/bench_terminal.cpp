// bench_terminal [--quick]: how fast the embedded terminal takes output. Prints the bytes per
// second TerminalScreen (libvterm + scrollback) sustains for kinds of output a GPU box sends,
// and, for the widget, how long a big `cat` keeps the event loop away (the longest gap between
// two turns of the loop while it is fed). Numbers, not assertions: see bench/README.md.
#include "TerminalWidget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <vector>

using cardhour::terminal::TerminalScreen;
using cardhour::terminal::TerminalWidget;

namespace {

QByteArray repeatTo(qsizetype size, const std::function<QByteArray(int)> &line)
{
    QByteArray out;
    out.reserve(size + 256);
    for (int index = 0; out.size() < size; ++index)
        out += line(index);
    return out;
}

QByteArray plainLines(qsizetype size)
{
    return repeatTo(size, [](int index) {
        return "2026-11-30 18:00:00,123 INFO step " + QByteArray::number(index)
            + " loss=0.0421 lr=3.0e-4 tokens/s=51234 gpu_mem=71.2GiB\r\n";
    });
}

QByteArray colouredLines(qsizetype size)
{
    return repeatTo(size, [](int index) {
        return "\x1b[1;34mdata\x1b[0m  \x1b[1;32mtrain_" + QByteArray::number(index)
            + ".py\x1b[0m  \x1b[38;5;208mcheckpoint.pt\x1b[0m  \x1b[38;2;255;100;0mlog\x1b[0m\r\n";
    });
}

QByteArray cjkLines(qsizetype size)
{
    return repeatTo(size, [](int index) {
        return "第 " + QByteArray::number(index) + " 步：训练损失 0.0421，验证准确率 97.3%\r\n";
    });
}

// What htop or `nvidia-smi -l 1` sends: cursor moves and short coloured fields, no scrolling.
QByteArray fullScreenRedraws(qsizetype size)
{
    return repeatTo(size, [](int index) {
        QByteArray frame = "\x1b[H";
        for (int row = 1; row <= 24; ++row)
            frame += "\x1b[" + QByteArray::number(row) + ";1H\x1b[32m"
                + QByteArray((index + row) % 60, '|') + "\x1b[0m\x1b[K " + QByteArray::number(row);
        return frame;
    });
}

// CPU time of this process: on a busy machine wall time says more about the neighbours.
double cpuSeconds()
{
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) / 1e9;
}

// Megabytes per CPU second.
double modelMegabytesPerSecond(const QByteArray &input, int columns, int rows)
{
    TerminalScreen screen(rows, columns);
    const qsizetype chunk = 64 * 1024;
    const double start = cpuSeconds();
    for (qsizetype offset = 0; offset < input.size(); offset += chunk)
        screen.feed(QByteArray::fromRawData(input.constData() + offset,
                                            std::min(chunk, input.size() - offset)));
    return input.size() / 1e6 / (cpuSeconds() - start);
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const bool quick = app.arguments().contains(QStringLiteral("--quick"));
    const qsizetype size = quick ? 2'000'000 : 32'000'000;

    struct Case
    {
        const char *name;
        QByteArray (*make)(qsizetype);
    };
    const Case cases[] = {
        {"plain log lines", plainLines},
        {"coloured lines (16/256/truecolor)", colouredLines},
        {"CJK lines", cjkLines},
        {"full-screen redraws (htop-like)", fullScreenRedraws},
    };
    // libvterm moves the whole screen buffer for every scrolled line, so the size matters.
    std::printf("TerminalScreen, 64 KiB chunks, %.0f MB per case, MB per CPU second"
                "      80x24     200x50\n",
                size / 1e6);
    for (const Case &benchCase : cases) {
        const QByteArray input = benchCase.make(size);
        const double small = modelMegabytesPerSecond(input, 80, 24);
        const double large = modelMegabytesPerSecond(input, 200, 50);
        std::printf("  %-36s %7.1f MB/s %7.1f MB/s\n", benchCase.name, small, large);
    }

    // The widget on screen, fed one huge chunk: how long until it is all shown, and the longest
    // time the event loop (input, painting) had to wait meanwhile.
    TerminalWidget terminal;
    terminal.resize(1200, 800);
    terminal.show();
    const QByteArray cat = plainLines(size);
    std::vector<qint64> gapsNs;
    QElapsedTimer sinceTurn;
    QTimer loopProbe;
    loopProbe.setInterval(0);
    QObject::connect(&loopProbe, &QTimer::timeout, &terminal, [&] {
        gapsNs.push_back(sinceTurn.nsecsElapsed());
        sinceTurn.restart();
        if (terminal.pendingBytes() == 0)
            app.quit();
    });
    QElapsedTimer total;
    total.start();
    const double cpuStart = cpuSeconds();
    sinceTurn.start();
    terminal.feed(cat);
    loopProbe.start();
    app.exec();
    const double seconds = total.nsecsElapsed() / 1e9;
    const double cpu = cpuSeconds() - cpuStart;
    std::sort(gapsNs.begin(), gapsNs.end());
    const auto percentile = [&gapsNs](double fraction) {
        return gapsNs.empty() ? 0.0 : gapsNs[size_t(fraction * double(gapsNs.size() - 1))] / 1e6;
    };
    std::printf("TerminalWidget %dx%d, one feed() of %.0f MB: shown in %.2f s, %.2f CPU s "
                "(%.1f MB per CPU second); "
                "%zu event loop turns meanwhile, gap between turns median %.1f ms, 99%% %.1f ms, "
                "max %.1f ms\n",
                terminal.columns(), terminal.rows(), cat.size() / 1e6, seconds, cpu,
                cat.size() / 1e6 / cpu, gapsNs.size(), percentile(0.5), percentile(0.99),
                percentile(1.0));
    return 0;
}
