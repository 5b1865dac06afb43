#include "AppsPanel.h"

#include "CostPreview.h"
#include "Format.h"
#include "Notice.h"
#include "SshActions.h"
#include "StateStyle.h"
#include "api/ApiReply.h"
#include "api/ModelLibrary.h"
#include "session/ClientSession.h"
#include "theme/Design.h"

#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::GpuType;
using core::Image;
using core::Instance;
using core::InstanceState;
using core::LibraryModel;
using core::Reply;

AppsPanel::AppsPanel(core::ClientSession *session, SshActions *ssh, QWidget *parent)
    : QWidget(parent), m_session(session), m_ssh(ssh), m_heading(new QLabel(this)),
      m_loadError(new QLabel(this)), m_row(new QWidget(this)), m_rowLayout(new QHBoxLayout(m_row))
{
    setObjectName(u"appsPanel"_s);
    m_heading->setObjectName(u"appsHeading"_s);
    m_loadError->setObjectName(u"appsLoadError"_s);
    m_loadError->setWordWrap(true);
    m_loadError->hide();
    StateStyle::showAsError(m_loadError);
    Design::setTextRole(m_heading, TextRole::Heading);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addWidget(m_loadError);
    m_rowLayout->setContentsMargins(0, 0, 0, 0);
    m_rowLayout->addStretch(1);
    layout->addWidget(m_row);

    connect(m_session, &core::ClientSession::loggedIn, this, &AppsPanel::reload);
    connect(m_session, &core::ClientSession::instanceChanged, this, &AppsPanel::follow);
    connect(m_session, &core::ClientSession::instancesLoaded, this,
            [this](const QList<Instance> &list) {
                for (const Instance &instance : list)
                    follow(instance);
            });
    // Another user (or nobody) now: no launch of the previous one is followed.
    connect(m_session, &core::ClientSession::resetForUser, this, [this] {
        for (Entry &e : m_entries) {
            e.phase = Phase::Idle;
            e.instanceId.clear();
            setStatus(e, {});
        }
    });
    connect(m_ssh, &SshActions::appOpened, this, &AppsPanel::onAppOpened);
    connect(m_ssh, &SshActions::message, this, &AppsPanel::onSshMessage);
    retranslate();
    if (m_session->isLoggedIn())
        reload();
}

void AppsPanel::reload()
{
    if (m_pending > 0 || !m_session->isLoggedIn())
        return;
    m_pending = 3;
    m_loadProblem.clear();
    auto done = [this](const core::ApiError &error) {
        if (error.isError())
            m_loadProblem = error.userMessage();
        if (--m_pending == 0)
            rebuild();
    };
    m_session->gpuTypes()->onFinished(this, [this, done](const Reply<QList<GpuType>> &r) {
        if (r.ok())
            m_gpus = r.value();
        done(r.error());
    });
    m_session->images()->onFinished(this, [this, done](const Reply<QList<Image>> &r) {
        if (r.ok())
            m_images = r.value();
        done(r.error());
    });
    m_session->models()->onFinished(this, [this, done](const Reply<QList<LibraryModel>> &r) {
        if (r.ok())
            m_models = r.value();
        done(r.error());
    });
}

void AppsPanel::rebuild()
{
    // A launch in progress keeps its state (and what its card says) across a reload.
    struct Kept
    {
        Phase phase = Phase::Idle;
        QString instanceId;
        QElapsedTimer clock;
        QString status;
        QString error;
    };
    QHash<QString, Kept> kept;
    for (Entry &old : m_entries) {
        kept.insert(old.image.id,
                    {old.phase, old.instanceId, old.clock, old.status->text(), old.error->text()});
        delete old.card;
    }
    m_entries.clear();
    for (const Image &image : std::as_const(m_images)) {
        if (image.apps.isEmpty() || image.apps.first().port <= 0)
            continue;
        Entry e;
        e.image = image;
        e.app = image.apps.first();
        const Kept old = kept.value(image.id);
        e.phase = old.phase;
        e.instanceId = old.instanceId;
        e.clock = old.clock;
        e.card = new QFrame(m_row);
        auto *frame = static_cast<QFrame *>(e.card);
        frame->setObjectName(u"appCard_"_s + image.id);
        frame->setFrameShape(QFrame::StyledPanel);
        Design::setCard(frame);
        frame->setMinimumWidth(240);
        frame->setMaximumWidth(340);
        auto *cardLayout = new QVBoxLayout(frame);
        e.title = new QLabel(frame);
        Design::setTextRole(e.title, TextRole::Heading);
        e.title->setToolTip(image.description);
        e.mounts = new QLabel(frame);
        e.mounts->setObjectName(u"appMounts_"_s + image.id);
        e.price = new QLabel(frame);
        e.price->setObjectName(u"appPrice_"_s + image.id);
        e.status = new QLabel(frame);
        e.status->setObjectName(u"appStatus_"_s + image.id);
        e.error = new QLabel(frame);
        e.error->setObjectName(u"appError_"_s + image.id);
        StateStyle::showAsError(e.error);
        for (QLabel *label : {e.title, e.mounts, e.price, e.status, e.error})
            label->setWordWrap(true);
        e.launch = new QPushButton(frame);
        e.launch->setObjectName(u"appLaunch_"_s + image.id);
        const QString id = image.id;
        connect(e.launch, &QPushButton::clicked, this, [this, id] { confirmLaunch(id); });
        cardLayout->addWidget(e.title);
        cardLayout->addWidget(e.mounts);
        cardLayout->addWidget(e.price);
        cardLayout->addStretch(1);
        cardLayout->addWidget(e.status);
        cardLayout->addWidget(e.error);
        auto *buttons = new QHBoxLayout;
        buttons->addStretch(1);
        buttons->addWidget(e.launch);
        cardLayout->addLayout(buttons);
        m_rowLayout->insertWidget(m_rowLayout->count() - 1, frame);
        m_entries.append(e);
    }
    for (Entry &e : m_entries) {
        e.status->setText(kept.value(e.image.id).status);
        e.error->setText(kept.value(e.image.id).error);
        fillEntry(e);
    }
    retranslate();
    setVisible(!m_entries.isEmpty() || !m_loadProblem.isEmpty());
}

const GpuType *AppsPanel::defaultGpu(const core::ImageApp &app) const
{
    // The catalog's order, as the launch dialog's: the first type with enough free cards now,
    // else the first that has that many at all (the provider then says they are busy). Whole
    // cards only: a MIG slice is chosen in the launch dialog, never by default.
    for (const GpuType &gpu : m_gpus) {
        if (!gpu.isSlice() && gpu.available >= app.gpuCount)
            return &gpu;
    }
    for (const GpuType &gpu : m_gpus) {
        if (!gpu.isSlice() && gpu.capacity >= app.gpuCount)
            return &gpu;
    }
    return nullptr;
}

void AppsPanel::fillEntry(Entry &e)
{
    e.title->setText(e.image.name);
    QStringList models;
    for (const QString &name : std::as_const(e.app.models)) {
        auto known = std::find_if(m_models.cbegin(), m_models.cend(),
                                  [&name](const LibraryModel &m) { return m.id == name; });
        models << (known == m_models.cend()
                       ? name
                       : tr("%1 (%2)").arg(name, QLocale().formattedDataSize(known->sizeBytes)));
    }
    QStringList mounts;
    if (!models.isEmpty())
        mounts << tr("Models: %1").arg(models.join(u", "_s));
    if (!e.app.sampleData.isEmpty())
        mounts << tr("Sample data: %1").arg(e.app.sampleData);
    e.mounts->setText(mounts.isEmpty() ? tr("Mounts nothing.") : mounts.join(u'\n'));
    if (const GpuType *gpu = defaultGpu(e.app)) {
        //: cards × GPU name · price per hour of all the cards together
        e.price->setText(
            tr("%1 × %2 · %3")
                .arg(e.app.gpuCount)
                .arg(gpu->name, Format::ratePerHour(gpu->pricePerHourMicros * e.app.gpuCount)));
    } else {
        e.price->setText(tr("No GPU type has %n cards.", nullptr, e.app.gpuCount));
    }
    const bool busy =
        e.phase == Phase::Launching || e.phase == Phase::Waiting || e.phase == Phase::Opening;
    e.launch->setText(tr("Launch"));
    e.launch->setEnabled(!busy && defaultGpu(e.app));
    e.status->setVisible(!e.status->text().isEmpty());
    e.error->setVisible(!e.error->text().isEmpty());
}

AppsPanel::Entry *AppsPanel::entry(const QString &imageId)
{
    for (Entry &e : m_entries) {
        if (e.image.id == imageId)
            return &e;
    }
    return nullptr;
}

const AppsPanel::Entry *AppsPanel::entry(const QString &imageId) const
{
    return const_cast<AppsPanel *>(this)->entry(imageId);
}

QPushButton *AppsPanel::launchButton(const QString &imageId) const
{
    const Entry *e = entry(imageId);
    return e ? e->launch : nullptr;
}

QString AppsPanel::statusText(const QString &imageId) const
{
    const Entry *e = entry(imageId);
    if (!e)
        return {};
    return e->error->text().isEmpty() ? e->status->text() : e->error->text();
}

void AppsPanel::setStatus(Entry &e, const QString &text, bool isError)
{
    e.status->setText(isError ? QString() : text);
    e.error->setText(isError ? text : QString());
    fillEntry(e);
}

void AppsPanel::fail(Entry &e, const QString &message)
{
    e.phase = Phase::Failed;
    setStatus(e, message, true);
}

// Renting cards is asked first, with what they cost per hour (the catalog's price times the
// app's cards, as the card says), like every other action that rents.
void AppsPanel::confirmLaunch(const QString &imageId)
{
    const Entry *clicked = entry(imageId);
    const GpuType *gpu = clicked ? defaultGpu(clicked->app) : nullptr;
    if (!gpu)
        return;
    const int cards = clicked->app.gpuCount;
    const QString hourly = Format::ratePerHour(CostPreview::computePerHourMicros(*gpu, cards));
    QMessageBox *box =
        Notice::create(this, Notice::Kind::Question,
                       //: app name, price per hour of all its cards
                       tr("Launch %1 for %2?").arg(clicked->image.name, hourly),
                       //: app name, cards × GPU name, price per hour of all the cards
                       tr("Launch %1 on %2 × %3 for %4?")
                           .arg(clicked->image.name)
                           .arg(cards)
                           .arg(gpu->name, hourly),
                       CostPreview::text(*gpu, cards, m_session->ticker()), QMessageBox::Cancel);
    box->setObjectName(u"appLaunchConfirm"_s);
    QPushButton *yes = Notice::addAction(box, tr("Launch"));
    yes->setObjectName(u"confirmButton"_s);
    box->setDefaultButton(yes);
    connect(box, &QMessageBox::buttonClicked, this, [this, yes, imageId](QAbstractButton *button) {
        if (button == yes)
            launch(imageId);
    });
    box->open();
}

void AppsPanel::launch(const QString &imageId)
{
    Entry *clicked = entry(imageId);
    if (!clicked)
        return;
    const GpuType *gpu = defaultGpu(clicked->app);
    if (!gpu)
        return;
    clicked->clock.start();
    clicked->phase = Phase::Launching;
    clicked->instanceId.clear();
    setStatus(*clicked, tr("Launching…"));
    core::NewInstance request;
    request.gpuType = gpu->id;
    request.gpuCount = clicked->app.gpuCount;
    request.image = clicked->image.id;
    request.models = clicked->app.models;
    // Every key of the account may log in: the forward uses whichever this client holds.
    m_session->sshKeys()->onFinished(
        this, [this, imageId, request](const Reply<QList<core::SshKey>> &keys) {
            Entry *e = entry(imageId);
            if (!e)
                return;
            if (!keys.ok())
                return fail(*e, keys.error().userMessage());
            if (keys.value().isEmpty())
                return fail(*e,
                            tr("Add an SSH key first (Keys page): the app is reached "
                               "through SSH."));
            core::NewInstance withKeys = request;
            for (const core::SshKey &key : keys.value())
                withKeys.sshKeyIds << key.id;
            // The session holds the new instance before this handler runs.
            m_session->createInstance(withKeys)->onFinished(
                this, [this, imageId](const Reply<Instance> &r) {
                    Entry *created = entry(imageId);
                    if (!created)
                        return;
                    if (!r.ok())
                        return fail(*created, r.error().userMessage());
                    created->phase = Phase::Waiting;
                    created->instanceId = r.value().id;
                    Q_EMIT launched(r.value());
                    follow(r.value());
                });
        });
}

void AppsPanel::follow(const Instance &instance)
{
    for (Entry &e : m_entries) {
        if (e.instanceId != instance.id || e.phase != Phase::Waiting)
            continue;
        if (instance.state == InstanceState::Failed || instance.state == InstanceState::Terminated
            || instance.state == InstanceState::Stopped) {
            const QString state = Format::state(instance.state, instance.stateText);
            return fail(e,
                        instance.stateReason.isEmpty()
                            ? tr("“%1” is %2.").arg(instance.name, state)
                            : tr("“%1” is %2: %3").arg(instance.name, state, instance.stateReason));
        }
        const auto app =
            std::find_if(instance.apps.cbegin(), instance.apps.cend(),
                         [&e](const core::InstanceApp &a) { return a.name == e.app.name; });
        if (instance.state == InstanceState::Running && instance.ssh && app != instance.apps.cend()
            && app->ready) {
            e.phase = Phase::Opening;
            setStatus(e, tr("%1 answers: opening it…").arg(e.app.name));
            m_ssh->openApp(instance, *app);
            return;
        }
        const QString stage = instance.launch.stages.isEmpty()
            ? Format::state(instance.state, instance.stateText)
            : Format::stage(instance.launch.stages.constLast().name);
        //: an app's launch in progress: the latest stage reached, and the seconds since the click
        setStatus(e, tr("Starting (%1, %2)…").arg(stage, Format::seconds(e.clock.elapsed())));
    }
}

void AppsPanel::onAppOpened(const QUrl &url)
{
    for (Entry &e : m_entries) {
        if (e.phase != Phase::Opening
            || url.port() != int(m_ssh->forwardedPort(e.instanceId, e.app.port)))
            continue;
        e.phase = Phase::Open;
        const qint64 ms = e.clock.elapsed();
        setStatus(e, tr("Opened in the browser %1 after the click.").arg(Format::seconds(ms)));
        Q_EMIT appOpened(e.image.id, url, ms);
    }
}

void AppsPanel::onSshMessage(const QString &text, bool isError)
{
    // SshActions reports a forward that failed without naming the instance: it belongs to the
    // app being opened, if any.
    if (!isError)
        return;
    for (Entry &e : m_entries) {
        if (e.phase == Phase::Opening)
            fail(e, text);
    }
}

void AppsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    reload(); // the free cards and prices as they are now
}

void AppsPanel::retranslate()
{
    m_heading->setText(tr("Apps: one click launches, mounts and opens the web UI"));
    m_loadError->setText(m_loadProblem.isEmpty()
                             ? QString()
                             : tr("The apps could not be loaded: %1").arg(m_loadProblem));
    m_loadError->setVisible(!m_loadProblem.isEmpty());
    for (Entry &e : m_entries)
        fillEntry(e);
}

void AppsPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
