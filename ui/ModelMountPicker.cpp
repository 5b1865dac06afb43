#include "ModelMountPicker.h"

#include "session/ClientSession.h"

#include <QEvent>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::LibraryModel;
using core::Reply;

namespace {
constexpr int kModelNameRole = Qt::UserRole + 1;
} // namespace

ModelMountPicker::ModelMountPicker(core::ClientSession *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_title(new QLabel(this)), m_list(new QListWidget(this)),
      m_none(new QLabel(this))
{
    setObjectName(u"modelMountPicker"_s);
    m_list->setObjectName(u"modelList"_s);
    m_list->setMaximumHeight(90);
    m_none->setObjectName(u"noModelsLabel"_s);
    m_none->setWordWrap(true);
    m_title->setBuddy(m_list);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_list);
    layout->addWidget(m_none);
    retranslate();
}

ModelMountPicker::~ModelMountPicker() = default;

void ModelMountPicker::load()
{
    m_session->models()->onFinished(this, [this](const Reply<QList<LibraryModel>> &r) {
        m_loadError = r.ok() ? QString() : r.error().userMessage();
        if (r.ok())
            m_models = r.value();
        m_loaded = true;
        fill();
    });
}

QStringList ModelMountPicker::chosen() const
{
    QStringList names;
    for (int row = 0; row < m_list->count(); ++row) {
        if (m_list->item(row)->checkState() == Qt::Checked)
            names << m_list->item(row)->data(kModelNameRole).toString();
    }
    return names;
}

void ModelMountPicker::setChosen(const QStringList &names)
{
    for (int row = 0; row < m_list->count(); ++row) {
        QListWidgetItem *item = m_list->item(row);
        item->setCheckState(names.contains(item->data(kModelNameRole).toString()) ? Qt::Checked
                                                                                  : Qt::Unchecked);
    }
}

void ModelMountPicker::fill()
{
    const QStringList ticked = chosen();
    const QLocale locale;
    m_list->clear();
    for (const LibraryModel &m : std::as_const(m_models)) {
        const QString size = locale.formattedDataSize(m.sizeBytes, 1, QLocale::DataSizeIecFormat);
        //: a model to mount: name, task, where the host sees it, size, public or private
        const QString text =
            tr("%1 — %2, at %3 (%4, %5)")
                .arg(m.name, m.task, m.mountPath, size, m.isPrivate ? tr("yours") : tr("public"));
        auto *item = new QListWidgetItem(text, m_list);
        item->setData(kModelNameRole, m.name);
        item->setToolTip(m.description);
        item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
        item->setCheckState(ticked.contains(m.name) ? Qt::Checked : Qt::Unchecked);
    }
    m_list->setVisible(!m_models.isEmpty());
    m_none->setVisible(m_loaded && m_models.isEmpty());
    m_none->setText(m_loadError.isEmpty()
                        ? tr("The provider's model library is empty.")
                        : tr("The model library could not be loaded: %1").arg(m_loadError));
}

void ModelMountPicker::retranslate()
{
    m_title->setText(tr("<b>Models to mount</b> (read-only, at /models/NAME)"));
    m_list->setAccessibleName(tr("Models to mount"));
    fill();
}

void ModelMountPicker::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
