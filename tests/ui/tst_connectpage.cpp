// ConnectPage: the sandbox by default, a provider URL checked as it is typed, busy while the
// window connects, and the problem shown when it could not.
#include "ConnectPage.h"

#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::ui::ConnectPage;

class TestConnectPage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sandboxOrUrl()
    {
        ConnectPage page;
        page.show();
        QSignalSpy sandbox(&page, &ConnectPage::sandboxRequested);
        QSignalSpy url(&page, &ConnectPage::urlRequested);
        auto *connectButton = page.findChild<QPushButton *>(u"connectButton"_s);
        auto *urlEdit = page.findChild<QLineEdit *>(u"urlEdit"_s);
        QVERIFY(!urlEdit->isEnabled());
        QTest::mouseClick(connectButton, Qt::LeftButton);
        QCOMPARE(sandbox.size(), 1);

        QTest::mouseClick(page.findChild<QRadioButton *>(u"urlRadio"_s), Qt::LeftButton);
        QVERIFY(urlEdit->isEnabled());
        QTest::keyClicks(urlEdit, u"ftp://example.com"_s);
        QVERIFY(!connectButton->isEnabled());
        QVERIFY(!page.findChild<QLabel *>(u"urlHint"_s)->text().isEmpty());
        urlEdit->clear();
        QTest::keyClicks(urlEdit, u"http://127.0.0.1:8787"_s);
        QVERIFY(connectButton->isEnabled());
        QTest::keyClick(urlEdit, Qt::Key_Return);
        QCOMPARE(url.size(), 1);
        QCOMPARE(url.first().first().toUrl(), QUrl(u"http://127.0.0.1:8787"_s));

        page.setBusy(true, u"Asking…"_s);
        QVERIFY(page.findChild<QProgressBar *>(u"progressBar"_s)->isVisible());
        QVERIFY(!connectButton->isEnabled());
        page.setProblem(u"The provider cannot be reached."_s);
        QVERIFY(!page.findChild<QProgressBar *>(u"progressBar"_s)->isVisible());
        QVERIFY(connectButton->isEnabled());
        QCOMPARE(page.findChild<QLabel *>(u"progressLabel"_s)->text(),
                 u"The provider cannot be reached."_s);
    }
};

QTEST_MAIN(TestConnectPage)
#include "tst_connectpage.moc"
