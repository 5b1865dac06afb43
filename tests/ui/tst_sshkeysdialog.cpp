// The SSH keys dialog against a real cardhour-sim: generate an ed25519 key into the store,
// upload it (the provider's fingerprint matches), import one from a ~/.ssh folder through the
// file dialog, refuse a passphrase where there is no keychain without losing the typed name, and
// remove a key only after a confirmation.
#include "CoreTestSupport.h"
#include "SimProcess.h"
#include "SshKeysDialog.h"
#include "api/ProviderClient.h"
#include "session/ClientSession.h"
#include "ssh/SshKeyStore.h"

#include <QDir>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::test::SimProcess;

class TestSshKeysDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_sim.start({u"--runtime"_s, u"inprocess"_s}), qPrintable(m_sim.lastError()));
    }
    void generateUploadImportRemove();

private:
    SimProcess m_sim;
};

void TestSshKeysDialog::generateUploadImportRemove()
{
    const QString token = m_sim.signUp(u"keys@example.com"_s);
    QVERIFY2(!token.isEmpty(), qPrintable(m_sim.lastError()));
    // The widget's commands go through a session; the test points its client at the sim.
    core::ClientSession session{core::ClientSession::Options{}};
    core::ProviderClient &client = *session.client();
    client.setBaseUrl(m_sim.baseUrl());
    client.setToken(token);
    QTemporaryDir dir;
    // No SecretStore: a passphrase has nowhere to go.
    core::SshKeyStore store(nullptr, dir.filePath(u"store"_s));
    ui::SshKeysDialog dialog(&store, &session);
    dialog.setHomeDir(dir.filePath(u"home"_s));
    QSignalSpy changed(&dialog, &ui::SshKeysDialog::keysChanged);
    dialog.reload();
    dialog.show();
    auto *tree = dialog.findChild<QTreeWidget *>(u"keyTree"_s);
    auto *name = dialog.findChild<QLineEdit *>(u"nameEdit"_s);
    auto *passphrase = dialog.findChild<QLineEdit *>(u"passphraseEdit"_s);
    auto *generate = dialog.findChild<QPushButton *>(u"generateButton"_s);
    QCOMPARE(tree->topLevelItemCount(), 0);

    // A passphrase without a keychain: refused, said, and what was typed stays.
    QTest::keyClicks(name, u"laptop"_s);
    QTest::keyClicks(passphrase, u"secret words"_s);
    QTest::mouseClick(generate, Qt::LeftButton);
    QTRY_VERIFY(generate->isEnabled());
    QVERIFY2(dialog.statusText().contains(u"keychain"_s), qPrintable(dialog.statusText()));
    QCOMPARE(name->text(), u"laptop"_s);
    QCOMPARE(tree->topLevelItemCount(), 0);

    passphrase->clear();
    QTest::mouseClick(generate, Qt::LeftButton);
    QTRY_COMPARE(tree->topLevelItemCount(), 1);
    QCOMPARE(changed.size(), 1);
    const core::SshKeyPair key = store.keys().constFirst();
    QCOMPARE(key.type(), u"ssh-ed25519"_s);
    QCOMPARE(tree->topLevelItem(0)->text(2), key.fingerprintSha256());
    QCOMPARE(tree->topLevelItem(0)->text(3), u"not uploaded"_s);

    tree->topLevelItem(0)->setSelected(true);
    QTest::mouseClick(dialog.findChild<QPushButton *>(u"uploadButton"_s), Qt::LeftButton);
    QTRY_VERIFY2(tree->topLevelItemCount() == 1
                     && tree->topLevelItem(0)->text(3).startsWith(u"uploaded as"_s),
                 qPrintable(dialog.statusText()));
    const auto remote = test::await(client.sshKeys());
    QVERIFY2(remote.ok, remote.why());
    QCOMPARE(remote.value->size(), 1);
    QCOMPARE(remote.value->constFirst().fingerprintSha256, key.fingerprintSha256());

    // Import ~/.ssh/id_ed25519.pub (its private key next to it) through the file dialog.
    QVERIFY(QDir().mkpath(dir.filePath(u"home/.ssh"_s)));
    core::SshKeyPair outside;
    QString error;
    QVERIFY2(core::SshKeyPair::generate(dir.filePath(u"home/.ssh/id_ed25519"_s), {}, u"me@desk"_s,
                                        &outside, &error),
             qPrintable(error));
    QTest::mouseClick(dialog.findChild<QPushButton *>(u"importButton"_s), Qt::LeftButton);
    QFileDialog *files = nullptr;
    QTRY_VERIFY((files = dialog.findChild<QFileDialog *>(u"importKeyDialog"_s)));
    files->selectFile(outside.publicPath());
    QMetaObject::invokeMethod(files, &QDialog::accept); // as the Open button does
    QTRY_COMPARE(tree->topLevelItemCount(), 2);
    QVERIFY(store.key(outside.fingerprintSha256()).isValid());
    QCOMPARE(store.key(outside.fingerprintSha256()).privatePath(), outside.privatePath());

    QCoreApplication::processEvents();
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    QVERIFY(dialog.grab().save(QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u"/ssh-keys.png"_s));

    // Remove asks first; Cancel keeps the key, Remove forgets it (an imported key's files stay).
    tree->clearSelection();
    for (int row = 0; row < tree->topLevelItemCount(); ++row) {
        if (tree->topLevelItem(row)->text(2) == outside.fingerprintSha256())
            tree->topLevelItem(row)->setSelected(true);
    }
    auto *remove = dialog.findChild<QPushButton *>(u"removeButton"_s);
    QTest::mouseClick(remove, Qt::LeftButton);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = dialog.findChild<QMessageBox *>(u"confirmRemoveKey"_s)));
    box->button(QMessageBox::Cancel)->click();
    QCOMPARE(tree->topLevelItemCount(), 2);
    QTRY_VERIFY(!dialog.findChild<QMessageBox *>(u"confirmRemoveKey"_s));
    QTest::mouseClick(remove, Qt::LeftButton);
    QTRY_VERIFY((box = dialog.findChild<QMessageBox *>(u"confirmRemoveKey"_s)));
    for (QAbstractButton *button : box->buttons()) {
        if (box->buttonRole(button) == QMessageBox::DestructiveRole)
            button->click();
    }
    QTRY_COMPARE(tree->topLevelItemCount(), 1);
    QVERIFY(!store.key(outside.fingerprintSha256()).isValid());
    QVERIFY(QFile::exists(outside.privatePath()));
}

QTEST_MAIN(TestSshKeysDialog)
#include "tst_sshkeysdialog.moc"
