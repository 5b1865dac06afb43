#include "BenchPrompt.h"

#include "LaunchDialog.h"
#include "TerminalTab.h"
#include "TerminalWidget.h"
#include "session/ClientSession.h"
#include "ssh/SshShell.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QPushButton>
#include <QSocketNotifier>
#include <QTimer>

#include <chrono>
#include <cstdio>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace cardhour::app {

namespace {

double nowEpochMs()
{
    using namespace std::chrono;
    return double(duration_cast<microseconds>(system_clock::now().time_since_epoch()).count())
        / 1000.0;
}

// A prompt: the last line on the screen that has text ends in '#', '$' or '>'.
bool showsPrompt(const QString &screen)
{
    const QStringList lines = screen.split(u'\n');
    for (qsizetype i = lines.size() - 1; i >= 0; --i) {
        const QString line = lines.at(i).trimmed();
        if (!line.isEmpty())
            return line.endsWith(u'#') || line.endsWith(u'$') || line.endsWith(u'>');
    }
    return false;
}

class PromptRun : public QObject
{
public:
    explicit PromptRun(ui::MainWindow *window) : QObject(window), m_window(window)
    {
        core::ClientSession *session = window->clientSession();
        connect(session, &core::ClientSession::instancesLoaded, this, [this] {
            if (!m_started) {
                m_started = true;
                QTimer::singleShot(0, this, &PromptRun::openDialog);
            }
        });
        connect(session, &core::ClientSession::instanceChanged, this, &PromptRun::instanceChanged);
        auto *input = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
        connect(input, &QSocketNotifier::activated, this, &PromptRun::readCommand);
    }

private:
    void openDialog()
    {
        m_moments = {};
        m_id.clear();
        m_tab = nullptr;
        m_window->findChild<QAction *>(u"launchAction"_s)->trigger();
        m_dialog = m_window->findChild<ui::LaunchDialog *>();
        connect(m_dialog, &ui::LaunchDialog::launched, this,
                [this](const core::Instance &instance) {
                    mark(u"accepted"_s);
                    m_id = instance.id;
                    if (m_running.contains(m_id))
                        openTerminal();
                });
        clickWhenReady();
    }

    // The dialog reads the catalog and the keys first: a user clicks once it lets them.
    void clickWhenReady()
    {
        QPushButton *ok = m_dialog
            ? m_dialog->findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok)
            : nullptr;
        if (!ok || !ok->isEnabled() || !ok->isVisible()) {
            QTimer::singleShot(10, this, &PromptRun::clickWhenReady);
            return;
        }
        mark(u"click"_s);
        ok->click();
    }

    void instanceChanged(const core::Instance &instance)
    {
        if (instance.state != core::InstanceState::Running || m_running.contains(instance.id))
            return;
        m_running.insert(instance.id, nowEpochMs());
        m_instances.insert(instance.id, instance);
        if (instance.id == m_id)
            openTerminal();
    }

    void openTerminal()
    {
        if (m_tab)
            return;
        m_moments.insert(u"running_event"_s, m_running.value(m_id));
        m_tab = m_window->openTerminal(m_id);
        if (!m_tab) {
            std::fprintf(stderr, "cardhour-bench: the terminal of %s did not open\n",
                         qPrintable(m_id));
            QTimer::singleShot(10, this, &PromptRun::openTerminal);
            return;
        }
        mark(u"tab_opened"_s);
        connect(m_tab, &ui::TerminalTab::connected, this, [this] {
            mark(u"shell_opened"_s);
            connect(m_tab->shell(), &core::SshShell::output, this, [this] {
                if (!m_moments.contains(u"first_bytes"_s))
                    mark(u"first_bytes"_s);
            });
        });
        // A scroll area: the screen is painted on its viewport.
        m_tab->terminal()->viewport()->installEventFilter(this);
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && m_tab && watched == m_tab->terminal()->viewport()
            && !m_painted && m_moments.contains(u"first_bytes"_s)
            && showsPrompt(m_tab->terminal()->screen()->screenText())) {
            m_painted = true;
            // Once this paint is done and the loop turns: the prompt is on screen.
            QTimer::singleShot(0, this, [this] {
                mark(u"prompt_painted"_s);
                report();
            });
        }
        return QObject::eventFilter(watched, event);
    }

    void report()
    {
        const core::Instance instance = m_instances.value(m_id);
        QJsonObject stages;
        for (const core::LaunchStage &stage : instance.launch.stages)
            stages.insert(stage.name, double(stage.at.toMSecsSinceEpoch()));
        const ui::TerminalTab::ConnectSteps &steps = m_tab->connectSteps();
        const double opened = m_moments.value(u"tab_opened"_s);
        auto after = [opened](qint64 ms) { return ms < 0 ? QJsonValue() : opened + double(ms); };
        QJsonObject moments;
        for (auto it = m_moments.cbegin(); it != m_moments.cend(); ++it)
            moments.insert(it.key(), it.value());
        moments.insert(u"instance_known"_s, after(steps.instanceKnown));
        moments.insert(u"key_chosen"_s, after(steps.keyChosen));
        moments.insert(u"passphrase_read"_s, after(steps.passphraseRead));
        const QJsonObject line{
            {u"id"_s, m_id},
            {u"requested_at"_s, double(instance.launch.requestedAt.toMSecsSinceEpoch())},
            {u"stages"_s, stages},
            {u"moments"_s, moments},
            {u"ssh_connect_ms"_s, m_tab->shell()->connectMs()},
            {u"ssh_auth_ms"_s, m_tab->shell()->authMs()},
        };
        std::printf("cardhour-bench prompt %s\n",
                    QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
        std::fflush(stdout);
    }

    void readCommand()
    {
        char buffer[64];
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n > 0 && QByteArray(buffer, int(n)).startsWith("next")) {
            if (m_tab)
                m_tab->deleteLater(); // its host is gone: the next run opens a tab of its own
            m_tab = nullptr;
            m_painted = false;
            openDialog();
            return;
        }
        QCoreApplication::quit();
    }

    void mark(const QString &name) { m_moments.insert(name, nowEpochMs()); }

    ui::MainWindow *m_window;
    QPointer<ui::LaunchDialog> m_dialog;
    QPointer<ui::TerminalTab> m_tab;
    QString m_id;
    QHash<QString, double> m_moments;
    QHash<QString, double> m_running; // instance id -> when the stream said it runs
    QHash<QString, core::Instance> m_instances;
    bool m_started = false;
    bool m_painted = false;
};

} // namespace

void installBenchPrompt(ui::MainWindow *window)
{
    if (qEnvironmentVariable("CARDHOUR_BENCH_PROMPT") != u"1"_s)
        return;
    new PromptRun(window);
}

} // namespace cardhour::app
