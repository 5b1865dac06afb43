// Settings through the real main window: the form checks what is typed, OK stores the choices
// with QSettings and applies them at once (theme palette and style, language, warning
// thresholds, provider URL); a new window finds them again, with the window's size and last view.
// Saves <build>/screenshots/settings.png. QSettings live in QStandardPaths' test location.
#include "AppSettings.h"
#include "ConnectPage.h"
#include "MainWindow.h"
#include "SettingsDialog.h"
#include "Translations.h"
#include "billing/RunwayAlerts.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QProxyStyle>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStyle>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// The style the theme chose, under the client's icon proxy (ui/ClientStyle).
QString chosenStyleName()
{
    const QStyle *style = QApplication::style();
    if (const auto *proxy = qobject_cast<const QProxyStyle *>(style))
        style = proxy->baseStyle();
    return style->name();
}

} // namespace
using namespace cardhour;

class TestSettingsDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void formChecksFields();
    void appliedAndRemembered();

private:
    ui::MainWindow::Options options() const;
    void shoot(QWidget *widget, const QString &name);
    QString m_systemStyle;
};

void TestSettingsDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"CardHourTest"_s);
    QCoreApplication::setApplicationName(u"tst_settingsdialog"_s);
    QSettings().clear();
    m_systemStyle = chosenStyleName();
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
}

void TestSettingsDialog::cleanupTestCase()
{
    QSettings().clear();
}

ui::MainWindow::Options TestSettingsDialog::options() const
{
    ui::MainWindow::Options o;
    o.keychainService = u"CardHourTest-%1"_s.arg(QCoreApplication::applicationPid());
    o.keychainTimeoutMs = 3000;
    return o;
}

void TestSettingsDialog::shoot(QWidget *widget, const QString &name)
{
    QCoreApplication::processEvents();
    const QString path = QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u'/' + name + u".png"_s;
    QVERIFY2(widget->grab().save(path), qPrintable(path));
}

void TestSettingsDialog::formChecksFields()
{
    ui::AppSettings start;
    ui::SettingsDialog dialog(start);
    dialog.show();
    auto *ok = dialog.findChild<QPushButton *>(u"settingsOkButton"_s);
    auto *url = dialog.findChild<QLineEdit *>(u"providerEdit"_s);
    auto *hint = dialog.findChild<QLabel *>(u"hintLabel"_s);
    auto *first = dialog.findChild<QSpinBox *>(u"firstWarningSpin"_s);
    auto *last = dialog.findChild<QSpinBox *>(u"lastWarningSpin"_s);
    QCOMPARE(first->value(), 60);
    QCOMPARE(last->value(), 10);
    QVERIFY(ok->isEnabled()); // an empty URL means the local sandbox
    QTest::keyClicks(url, u"ftp://example.com"_s);
    QVERIFY(!ok->isEnabled());
    QVERIFY2(hint->text().contains(u"http://"_s), qPrintable(hint->text()));
    url->clear();
    QTest::keyClicks(url, u"https://gpu.example.com:8443"_s);
    QVERIFY(ok->isEnabled());
    last->setValue(60);
    QVERIFY(!ok->isEnabled());
    QVERIFY2(hint->text().contains(u"fewer minutes"_s), qPrintable(hint->text()));
    last->setValue(15);
    QVERIFY(ok->isEnabled());
    QString problem;
    const ui::AppSettings chosen = dialog.settings(&problem);
    QVERIFY(problem.isEmpty());
    QCOMPARE(chosen.providerUrl, QUrl(u"https://gpu.example.com:8443"_s));
    QCOMPARE(chosen.warnLastMinutes, 15);
    // Stored values out of range come back in range.
    QSettings store;
    store.setValue(u"alerts/firstMinutes"_s, 100000);
    store.setValue(u"theme"_s, u"purple"_s);
    const ui::AppSettings loaded = ui::AppSettings::load(store);
    QCOMPARE(loaded.warnFirstMinutes, 1440);
    QCOMPARE(loaded.theme, u"system"_s);
    store.clear();
}

void TestSettingsDialog::appliedAndRemembered()
{
    ui::Translations translations;
    {
        ui::MainWindow window(options(), &translations);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QColor lightWindow = QApplication::palette().color(QPalette::Window);

        window.findChild<QAction *>(u"settingsAction"_s)->trigger();
        ui::SettingsDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<ui::SettingsDialog *>(u"settingsDialog"_s)));
        QVERIFY(dialog->isVisible());
        QTest::keyClicks(dialog->findChild<QLineEdit *>(u"providerEdit"_s),
                         u"http://127.0.0.1:8790"_s);
        auto *language = dialog->findChild<QComboBox *>(u"languageCombo"_s);
        language->setCurrentIndex(language->findData(u"zh_CN"_s));
        auto *theme = dialog->findChild<QComboBox *>(u"themeCombo"_s);
        theme->setCurrentIndex(theme->findData(u"dark"_s));
        dialog->findChild<QSpinBox *>(u"firstWarningSpin"_s)->setValue(30);
        dialog->findChild<QSpinBox *>(u"lastWarningSpin"_s)->setValue(5);
        shoot(dialog, u"settings"_s);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"settingsOkButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!window.findChild<ui::SettingsDialog *>(u"settingsDialog"_s));

        // Applied at once.
        QCOMPARE(ui::Theme::current(), u"dark"_s);
        QCOMPARE(chosenStyleName(), u"fusion"_s);
        const QColor dark = QApplication::palette().color(QPalette::Window);
        QVERIFY2(dark.lightness() < 80, qPrintable(dark.name()));
        QVERIFY(dark != lightWindow);
        QCOMPARE(window.palette().color(QPalette::Window), dark);
        QCOMPARE(translations.current(), u"zh_CN"_s);
        QTRY_COMPARE(window.findChild<QAction *>(u"launchAction"_s)->text(), u"启动实例(&L)…"_s);
        QCOMPARE(window.runwayAlerts()->thresholdsMinutes(), (QList<int>{30, 5}));
        QCOMPARE(window.findChild<QLineEdit *>(u"urlEdit"_s)->text(), u"http://127.0.0.1:8790"_s);
        shoot(&window, u"settings-applied"_s);

        // Stored.
        QSettings store;
        QCOMPARE(store.value(u"theme"_s).toString(), u"dark"_s);
        QCOMPARE(store.value(u"language"_s).toString(), u"zh_CN"_s);
        QCOMPARE(store.value(u"alerts/firstMinutes"_s).toInt(), 30);
        QCOMPARE(store.value(u"alerts/lastMinutes"_s).toInt(), 5);
        QCOMPARE(store.value(u"provider/url"_s).toUrl(), QUrl(u"http://127.0.0.1:8790"_s));

        window.setCurrentView(ui::MainWindow::View::Billing);
        window.resize(870, 640);
        QTRY_COMPARE(window.size(), QSize(870, 640));
    }
    // A new window: the same size, the same view, the same thresholds.
    ui::MainWindow again(options(), &translations);
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QCOMPARE(again.currentView(), ui::MainWindow::View::Billing);
    QCOMPARE(again.size(), QSize(870, 640));
    QCOMPARE(again.runwayAlerts()->thresholdsMinutes(), (QList<int>{30, 5}));
    QCOMPARE(again.settings().theme, u"dark"_s);

    // Back to the system look and English.
    ui::AppSettings plain = again.settings();
    plain.theme = u"system"_s;
    plain.language = u"en"_s;
    again.applySettings(plain);
    QCOMPARE(ui::Theme::current(), u"system"_s);
    QCOMPARE(chosenStyleName(), m_systemStyle);
    QCOMPARE(translations.current(), u"en"_s);
    QTRY_COMPARE(again.findChild<QAction *>(u"launchAction"_s)->text(), u"&Launch…"_s);
}

QTEST_MAIN(TestSettingsDialog)
#include "tst_settingsdialog.moc"
