#pragma once

#include "api/ModelLibrary.h"

#include <QList>
#include <QStringList>
#include <QWidget>

class QLabel;
class QListWidget;

namespace cardhour::core {
class ClientSession;
} // namespace cardhour::core

namespace cardhour::ui {

// The launch dialog's "Models to mount": the library's models (GET /v1/models: public ones and
// the user's own), none ticked by default; a host sees each ticked one read-only at its mount
// path (NewInstance::models).
class ModelMountPicker : public QWidget
{
    Q_OBJECT
public:
    // `session` is not owned and must outlive the picker.
    explicit ModelMountPicker(core::ClientSession *session, QWidget *parent = nullptr);
    ~ModelMountPicker() override;

    // GET /v1/models (ticks are kept for models still listed).
    void load();
    // The names of the ticked models, in the list's order.
    QStringList chosen() const;
    void setChosen(const QStringList &names);
    QList<core::LibraryModel> models() const { return m_models; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void fill();
    void retranslate();

    core::ClientSession *m_session;
    QList<core::LibraryModel> m_models;
    QLabel *m_title;
    QListWidget *m_list;
    QLabel *m_none;
    QString m_loadError;
    bool m_loaded = false;
};

} // namespace cardhour::ui
