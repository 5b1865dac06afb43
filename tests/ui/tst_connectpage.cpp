// ConnectPage: the sandbox by default, a provider URL checked as it is typed, busy while the
// window connects, and the problem shown when it could not; the sandbox's image panel comes after
// the page's first frame.
#include "ConnectPage.h"
#include "ImagePreparation.h"
#include "sandbox/SandboxLauncher.h"

#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::ui::ConnectPage;
using cardhour::ui::ImagePreparation;

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

    // The panel under the choice (what the sandbox still needs) is hidden until the sandbox's
    // images were looked at, which runs a program: the first frame waits for neither. It is
    // built after that frame, as wide as the choice, and shows what the look found.
    void imagePanelAfterTheFirstFrame()
    {
        cardhour::core::SandboxLauncher launcher;
        launcher.setExecutable(u"/bin/false"_s); // lists no images: a problem to show
        ConnectPage page(&launcher);
        page.resize(900, 700);
        QVERIFY(!page.findChild<ImagePreparation *>());
        page.show();
        ImagePreparation *panel = nullptr;
        QTRY_VERIFY((panel = page.findChild<ImagePreparation *>()));
        QTRY_VERIFY(panel->isVisible());
        QTRY_VERIFY(
            page.findChild<QLabel *>(u"imagesError"_s)->text().contains(u"exit status 1"_s));
        // Nothing is said about the images the list did not show.
        QCOMPARE(page.findChild<QLabel *>(u"imagesSummary"_s)->text(), QString());
        QCOMPARE(panel->width(), page.findChild<QGroupBox *>(u"choiceBox"_s)->width());
    }
};

QTEST_MAIN(TestConnectPage)
#include "tst_connectpage.moc"
