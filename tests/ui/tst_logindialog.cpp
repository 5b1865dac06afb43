// LoginDialog: the fields are checked as they are typed, OK waits for the provider, and the
// provider's refusal is shown in the dialog, which stays open.
#include "LoginDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::ui::LoginDialog;

class TestLoginDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void validation_data()
    {
        QTest::addColumn<QString>("email");
        QTest::addColumn<QString>("password");
        QTest::addColumn<bool>("signUp");
        QTest::addColumn<bool>("okEnabled");
        QTest::addColumn<bool>("hint");
        QTest::newRow("empty") << QString() << QString() << false << false << false;
        QTest::newRow("log in") << u"a@example.com"_s << u"x"_s << false << true << false;
        QTest::newRow("not an address") << u"a@b"_s << u"long enough"_s << false << false << true;
        QTest::newRow("short password for sign-up")
            << u"a@example.com"_s << u"short"_s << true << false << true;
        QTest::newRow("sign up") << u"a@example.com"_s << u"long enough"_s << true << true << false;
    }
    void validation()
    {
        QFETCH(QString, email);
        QFETCH(QString, password);
        QFETCH(bool, signUp);
        QFETCH(bool, okEnabled);
        QFETCH(bool, hint);
        LoginDialog dialog;
        dialog.show();
        QTest::keyClicks(dialog.findChild<QLineEdit *>(u"emailEdit"_s), email);
        QTest::keyClicks(dialog.findChild<QLineEdit *>(u"passwordEdit"_s), password);
        dialog.setSignUp(signUp);
        auto *ok =
            dialog.findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok);
        QCOMPARE(ok->isEnabled(), okEnabled);
        QCOMPARE(!dialog.findChild<QLabel *>(u"hintLabel"_s)->text().isEmpty(), hint);
        QCOMPARE(ok->text(), signUp ? u"Sign up"_s : u"Log in"_s);
    }

    void submitWaitsAndShowsTheRefusal()
    {
        LoginDialog dialog;
        dialog.show();
        QSignalSpy submitted(&dialog, &LoginDialog::submitted);
        dialog.setEmail(u"a@example.com"_s);
        QTest::keyClicks(dialog.findChild<QLineEdit *>(u"passwordEdit"_s), u"secret"_s);
        auto *ok =
            dialog.findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok);
        QTest::mouseClick(ok, Qt::LeftButton);
        QCOMPARE(submitted.size(), 1);
        QCOMPARE(submitted.first().at(0).toString(), u"a@example.com"_s);
        QCOMPARE(submitted.first().at(2).toBool(), false);
        QVERIFY(dialog.isVisible()); // open until the provider has answered
        QVERIFY(!ok->isEnabled());
        QVERIFY(!dialog.findChild<QLineEdit *>(u"emailEdit"_s)->isEnabled());

        dialog.showError(u"Wrong e-mail address or password."_s);
        QVERIFY(dialog.isVisible());
        QVERIFY(ok->isEnabled());
        QCOMPARE(dialog.findChild<QLabel *>(u"errorLabel"_s)->text(),
                 u"Wrong e-mail address or password."_s);
    }
};

QTEST_MAIN(TestLoginDialog)
#include "tst_logindialog.moc"
