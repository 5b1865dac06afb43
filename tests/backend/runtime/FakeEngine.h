#pragma once

// An EngineCommands that runs nothing: it records each command and answers it from rules set
// by the test (the first rule whose prefix the command line starts with; a rule given with
// once() answers one command only), on the event loop as the real one does. Unanswered
// commands succeed with no output.

#include "runtime/EngineCommands.h"

#include <QList>
#include <QObject>
#include <QTimer>

#include <functional>

namespace cardhour::sim::test {

class FakeEngine final : public EngineCommands
{
public:
    struct Call
    {
        QStringList args;
        int timeoutMs = 0;
        QProcessEnvironment environment;
        bool snapshotStep = false;
        QString line() const { return args.join(QLatin1Char(' ')); }
    };
    using Answer = std::function<ProcessResult(const QStringList &args)>;

    explicit FakeEngine(cli::Engine engine = cli::Engine::Podman,
                        const QString &providerId = QStringLiteral("prov"))
        : EngineCommands(engine, providerId)
    {}

    static ProcessResult ok(const QByteArray &out = {})
    {
        ProcessResult r;
        r.started = true;
        r.exitCode = 0;
        r.out = out;
        return r;
    }
    static ProcessResult failed(const QByteArray &err, int exitCode = 1)
    {
        ProcessResult r;
        r.started = true;
        r.exitCode = exitCode;
        r.err = err;
        return r;
    }

    // Commands starting with `prefix` (arguments joined by spaces) get `result`.
    void answer(const QString &prefix, const ProcessResult &result)
    {
        m_rules.append({prefix, [result](const QStringList &) { return result; }, false});
    }
    void answer(const QString &prefix, Answer answer)
    {
        m_rules.append({prefix, std::move(answer), false});
    }
    // The next command starting with `prefix` gets `result`, before the lasting rules.
    void once(const QString &prefix, const ProcessResult &result)
    {
        m_rules.prepend({prefix, [result](const QStringList &) { return result; }, true});
    }

    void run(const QStringList &args, Callback done, int timeoutMs = 0,
             const QProcessEnvironment &extraEnv = {}) override
    {
        record({args, timeoutMs, extraEnv, false}, std::move(done));
    }
    void runSnapshotStep(const QStringList &args, Callback done, int timeoutMs) override
    {
        record({args, timeoutMs, {}, true}, std::move(done));
    }
    ProcessResult runBlocking(const QStringList &args, int timeoutMs) override
    {
        calls.append({args, timeoutMs, {}, false});
        return resultFor(args);
    }

    // The command lines run so far, in order.
    QStringList lines() const
    {
        QStringList all;
        for (const Call &call : calls)
            all.append(call.line());
        return all;
    }
    // How many command lines start with `prefix`.
    int count(const QString &prefix) const
    {
        int n = 0;
        for (const Call &call : calls)
            n += call.line().startsWith(prefix) ? 1 : 0;
        return n;
    }
    // The first command line starting with `prefix`; empty when none did.
    Call first(const QString &prefix) const
    {
        for (const Call &call : calls) {
            if (call.line().startsWith(prefix))
                return call;
        }
        return {};
    }
    void shutDown() { setShuttingDown(); }

    QList<Call> calls;

private:
    struct Rule
    {
        QString prefix;
        Answer answer;
        bool once = false;
    };

    ProcessResult resultFor(const QStringList &args)
    {
        const QString line = args.join(QLatin1Char(' '));
        for (int i = 0; i < m_rules.size(); ++i) {
            if (!line.startsWith(m_rules.at(i).prefix))
                continue;
            const Rule rule = m_rules.at(i);
            if (rule.once)
                m_rules.removeAt(i);
            return rule.answer(args);
        }
        return ok();
    }

    void record(const Call &call, Callback done)
    {
        calls.append(call);
        const ProcessResult result = resultFor(call.args);
        QTimer::singleShot(0, &m_context, [done = std::move(done), result] { done(result); });
    }

    QList<Rule> m_rules;
    QObject m_context;
};

// `ps -a --format json` (podman's shape) of containers of provider "prov".
inline QByteArray podmanPs(const QList<cli::ContainerInfo> &containers)
{
    QByteArray out = "[";
    for (const cli::ContainerInfo &c : containers) {
        if (out.size() > 1)
            out += ',';
        out +=
            QStringLiteral(
                R"({"Id":"%1","Labels":{"cardhour.instance":"%2","cardhour.managed":"true","cardhour.owner":"%3","cardhour.provider":"prov"},"Ports":[{"host_ip":"127.0.0.1","container_port":22,"host_port":%4,"range":1,"protocol":"tcp"}],"State":"%5"})")
                .arg(c.containerId, c.instanceId, c.ownerId)
                .arg(c.sshPort)
                .arg(c.state)
                .toUtf8();
    }
    return out + "]";
}

inline cli::ContainerInfo container(const QString &containerId, const QString &instanceId,
                                    bool running, int sshPort = 40022)
{
    cli::ContainerInfo info;
    info.containerId = containerId;
    info.instanceId = instanceId;
    info.ownerId = QStringLiteral("u-1");
    info.state = running ? QStringLiteral("running") : QStringLiteral("exited");
    info.running = running;
    info.sshPort = sshPort;
    info.ports = {{22, sshPort}};
    return info;
}

} // namespace cardhour::sim::test
