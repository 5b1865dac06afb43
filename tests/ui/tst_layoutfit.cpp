// No clipped text at the window sizes people use: the real main window against a real
// cardhour-sim (in-process runtime), with three hosts running, on a 1280×800 and a 1920×1080
// screen. Every page (and each tab of the Billing page), the account page before log-in and the
// launch dialog: no visible label has less room than its text needs, no label runs out of the
// scroll area that holds it, and the Instances table fits its columns without a sideways scroll
// bar, its money columns whole. Saves layoutfit-<page>-<size>.png under <build>/screenshots.
#include "AccountPageDriver.h"
#include "AppSettings.h"
#include "GuiTestWindow.h"
#include "InstanceTableModel.h"
#include "LaunchDialog.h"
#include "MainWindow.h"
#include "SimProcess.h"
#include "pages/AccountPage.h"
#include "pages/HomePage.h"
#include "pages/HostCard.h"
#include "session/Session.h"

#include <QAbstractItemDelegate>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyleOptionViewItem>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::test::SimProcess;

namespace {

// The two screens of the offscreen platform (main() below), by name.
struct ScreenSize
{
    QString name;
    QSize size;
};
const QList<ScreenSize> &screenSizes()
{
    static const QList<ScreenSize> sizes = {{u"laptop"_s, QSize(1280, 800)},
                                            {u"desktop"_s, QSize(1920, 1080)}};
    return sizes;
}

// The account everyScreenFits() makes and hostCardsUseTheWidthAtLogIn() logs in to.
const QString kEmail = u"layout@example.com"_s;

QScreen *screenNamed(const QString &name)
{
    for (QScreen *screen : QGuiApplication::screens()) {
        if (screen->name() == name)
            return screen;
    }
    return nullptr;
}

QString describe(const QLabel *label)
{
    QString text = label->text().simplified();
    if (text.size() > 60)
        text = text.first(57) + u"..."_s;
    return u"%1 \"%2\" (%3×%4)"_s
        .arg(label->objectName().isEmpty() ? QString::fromLatin1(label->metaObject()->className())
                                           : label->objectName(),
             text)
        .arg(label->width())
        .arg(label->height());
}

// What of a label's text the user cannot see: a wrapped label lower than its text at its width,
// another narrower or lower than its text, or a label cut by the scroll area it sits in (one
// that cannot scroll sideways).
QString clipOf(const QLabel *label)
{
    if (label->wordWrap()) {
        const int needed = label->heightForWidth(label->width());
        if (needed > label->height())
            return u"needs %1 px of height at its width"_s.arg(needed);
    } else {
        const QSize needed = label->sizeHint();
        if (needed.width() > label->width() || needed.height() > label->height())
            return u"needs %1×%2"_s.arg(needed.width()).arg(needed.height());
    }
    for (const QWidget *up = label->parentWidget(); up; up = up->parentWidget()) {
        const auto *scroll = qobject_cast<const QAbstractScrollArea *>(up->parentWidget());
        if (!scroll || scroll->viewport() != up || scroll->horizontalScrollBar()->isVisible())
            continue;
        const int right = label->mapTo(up, QPoint(label->width(), 0)).x();
        if (right > up->width())
            return u"runs %1 px out of its scroll area"_s.arg(right - up->width());
    }
    return {};
}

// Every visible label under `root` whose text is cut, described.
QStringList clippedLabels(const QWidget *root)
{
    QStringList clipped;
    const QList<QLabel *> labels = root->findChildren<QLabel *>();
    for (const QLabel *label : labels) {
        if (!label->isVisible() || label->text().isEmpty())
            continue;
        const QString why = clipOf(label);
        if (!why.isEmpty())
            clipped << describe(label) + u": "_s + why;
    }
    return clipped;
}

} // namespace

class TestLayoutFit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void everyScreenFits();
    void hostCardsUseTheWidthAtLogIn();

private:
    void checkFits(const QWidget *root, const QString &shot);
    void checkInstanceTable(ui::MainWindow &window, const QString &size);
    void checkHostCardsInOneRow(ui::MainWindow &window, const QString &size);
    void launchHosts(const QString &token);

    SimProcess m_sim;
    QTemporaryDir m_scratch;
    const QString m_shots = QStringLiteral(CARDHOUR_SCREENSHOT_DIR);
};

void TestLayoutFit::initTestCase()
{
    QVERIFY(m_scratch.isValid());
    ui::Theme::apply(u"light"_s);
    QVERIFY2(m_sim.start(), qPrintable(m_sim.lastError()));
    for (const ScreenSize &s : screenSizes())
        QVERIFY2(screenNamed(s.name), qPrintable(s.name));
}

void TestLayoutFit::cleanupTestCase()
{
    m_sim.kill();
}

void TestLayoutFit::checkFits(const QWidget *root, const QString &shot)
{
    // A page just shown asks the provider for its data: the texts (and the layout) settle once
    // the answers are in.
    QTRY_VERIFY2(clippedLabels(root).isEmpty(),
                 qPrintable(shot + u": "_s + clippedLabels(root).join(u"; "_s)));
    QVERIFY(test::saveScreenshot(const_cast<QWidget *>(root), m_shots, shot));
}

void TestLayoutFit::checkInstanceTable(ui::MainWindow &window, const QString &size)
{
    auto *table = window.findChild<QTableView *>(u"instanceTable"_s);
    QVERIFY(table);
    QTRY_VERIFY(table->isVisible());
    QCoreApplication::processEvents();
    const QHeaderView *header = table->horizontalHeader();
    const QString where = u"instance table at "_s + size;
    QVERIFY2(!table->horizontalScrollBar()->isVisible(), qPrintable(where));
    QVERIFY2(header->length() <= table->viewport()->width(),
             qPrintable(where
                        + u": columns %1 px, room %2 px"_s.arg(header->length())
                              .arg(table->viewport()->width())));
    // What it costs is never cut: the price and the cost so far, values and headers, whole.
    for (const int column :
         {ui::InstanceTableModel::PriceColumn, ui::InstanceTableModel::CostColumn}) {
        int needed = header->sectionSizeHint(column);
        QStyleOptionViewItem option;
        option.initFrom(table);
        option.widget = table;
        QAbstractItemDelegate *delegate = table->itemDelegateForColumn(column)
            ? table->itemDelegateForColumn(column)
            : table->itemDelegate();
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            const QModelIndex index = table->model()->index(row, column);
            needed = qMax(needed, delegate->sizeHint(option, index).width());
        }
        QVERIFY2(header->sectionSize(column) >= needed,
                 qPrintable(where
                            + u": column %1 has %2 px, needs %3"_s.arg(column)
                                  .arg(header->sectionSize(column))
                                  .arg(needed)));
    }
}

// Three cards side by side: both screens have room for three at their least width, so none
// falls into a narrow column of its own.
void TestLayoutFit::checkHostCardsInOneRow(ui::MainWindow &window, const QString &size)
{
    const QList<ui::HostCard *> cards = window.homePage()->cards();
    QCOMPARE(cards.size(), 3);
    for (const ui::HostCard *card : cards) {
        QVERIFY(card->isVisible());
        QVERIFY2(card->y() == cards.first()->y(),
                 qPrintable(u"%1: card %2 at y %3, the first at %4"_s.arg(size)
                                .arg(card->instanceId())
                                .arg(card->y())
                                .arg(cards.first()->y())));
    }
}

// Logging in to an account that has hosts and visiting Home after another page builds the page
// with all its cards before they have their width: they still share a row (they once fell into
// one narrow column).
void TestLayoutFit::hostCardsUseTheWidthAtLogIn()
{
    QTemporaryDir dir;
    ui::MainWindow window(test::isolatedWindowOptions(QDir(dir.path()), u"layoutfit-login"_s));
    window.setGeometry(screenNamed(screenSizes().constFirst().name)->availableGeometry());
    // The Instances page first: the Home page is then built with the hosts already there.
    window.setCurrentView(ui::MainWindow::View::Instances);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.connectToUrl(m_sim.baseUrl());
    ui::AccountPage *page = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((page = test::shownAccountPage(window)), 20000);
    // A window that remembers no account offers sign-up first: this account exists.
    auto *logIn = page->findChild<QRadioButton *>(u"logInRadio"_s);
    QVERIFY(logIn);
    logIn->click();
    QVERIFY(logIn->isChecked());
    QTest::keyClicks(page->findChild<QLineEdit *>(u"emailEdit"_s), kEmail);
    auto *password = page->findChild<QLineEdit *>(u"passwordEdit"_s);
    QTest::keyClicks(password, test::testPassword());
    QTest::keyClick(password, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->isLoggedIn(), 20000);
    QTRY_COMPARE(window.instanceModel()->rowCount(), 3);
    QTRY_VERIFY(window.page(ui::MainWindow::View::Instances)->isVisible());
    window.setCurrentView(ui::MainWindow::View::Home);
    QTRY_COMPARE(window.homePage()->cards().size(), 3);
    QCoreApplication::processEvents();
    checkHostCardsInOneRow(window, u"log-in"_s);
    QVERIFY(test::saveScreenshot(&window, m_shots, u"layoutfit-home-after-login"_s));
}

void TestLayoutFit::launchHosts(const QString &token)
{
    const QList<std::pair<QString, int>> hosts = {
        {u"train-llama-70b-finetune"_s, 4}, {u"eval-7b"_s, 1}, {u"notebook"_s, 2}};
    for (const auto &[name, cards] : hosts) {
        const auto launched = m_sim.authedPost(token, u"/v1/instances"_s,
                                               {{u"name"_s, name},
                                                {u"gpu_type"_s, u"rtx4090"_s},
                                                {u"gpu_count"_s, cards},
                                                {u"image"_s, u"base"_s}});
        QCOMPARE(launched.status, 202);
    }
}

void TestLayoutFit::everyScreenFits()
{
    ui::MainWindow window(test::isolatedWindowOptions(QDir(m_scratch.path()), u"layoutfit"_s));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.connectToUrl(m_sim.baseUrl());
    QTRY_VERIFY_WITH_TIMEOUT(test::shownAccountPage(window), 20000);
    QVERIFY(test::tickSignUp(test::shownAccountPage(window)));
    for (const ScreenSize &s : screenSizes()) {
        window.setGeometry(screenNamed(s.name)->availableGeometry());
        QTRY_COMPARE(window.size(), s.size);
        checkFits(&window, u"layoutfit-account-%1x%2"_s.arg(s.size.width()).arg(s.size.height()));
    }
    QString why;
    QVERIFY2(test::signUpThroughPage(window, kEmail, &why), qPrintable(why));
    launchHosts(window.session()->token());
    if (QTest::currentTestFailed())
        return;
    QTRY_VERIFY_WITH_TIMEOUT(window.instanceModel()->rowCount() == 3, 20000);

    const QList<std::pair<ui::MainWindow::View, QString>> pages = {
        {ui::MainWindow::View::Home, u"home"_s},
        {ui::MainWindow::View::Instances, u"instances"_s},
        {ui::MainWindow::View::Snapshots, u"snapshots"_s},
        {ui::MainWindow::View::Storage, u"storage"_s},
        {ui::MainWindow::View::Billing, u"billing"_s},
        {ui::MainWindow::View::Keys, u"keys"_s}};
    for (const ScreenSize &s : screenSizes()) {
        const QString size = u"%1x%2"_s.arg(s.size.width()).arg(s.size.height());
        window.setGeometry(screenNamed(s.name)->availableGeometry());
        QTRY_COMPARE(window.size(), s.size);
        window.selectInstance(window.instanceModel()->instanceAt(0)->id);
        for (const auto &[view, name] : pages) {
            window.setCurrentView(view);
            QTRY_VERIFY(window.page(view)->isVisible());
            auto *tabs = qobject_cast<QTabWidget *>(window.page(view));
            if (!tabs)
                tabs = window.page(view)->findChild<QTabWidget *>(QString(),
                                                                  Qt::FindDirectChildrenOnly);
            const int tabCount = view == ui::MainWindow::View::Billing && tabs ? tabs->count() : 1;
            for (int tab = 0; tab < tabCount; ++tab) {
                if (tabCount > 1)
                    tabs->setCurrentIndex(tab);
                const QString shot = tabCount > 1
                    ? u"layoutfit-%1-%2-%3"_s.arg(name).arg(tab).arg(size)
                    : u"layoutfit-%1-%2"_s.arg(name, size);
                checkFits(&window, shot);
                if (QTest::currentTestFailed())
                    return;
            }
            if (view == ui::MainWindow::View::Home) {
                checkHostCardsInOneRow(window, size);
                if (QTest::currentTestFailed())
                    return;
            }
            if (view == ui::MainWindow::View::Instances) {
                checkInstanceTable(window, size);
                if (QTest::currentTestFailed())
                    return;
            }
        }
        // The launch dialog, as it opens on this screen.
        window.setCurrentView(ui::MainWindow::View::Instances);
        window.findChild<QAction *>(u"launchAction"_s)->trigger();
        ui::LaunchDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<ui::LaunchDialog *>()) && dialog->isVisible());
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->findChild<QLabel *>(u"costLabel"_s)->text().isEmpty(),
                                 10000);
        QTest::qWait(100); // the catalog's four answers fill the lists
        checkFits(dialog, u"layoutfit-launch-"_s + size);
        dialog->reject();
        QTRY_VERIFY(!dialog->isVisible());
        if (QTest::currentTestFailed())
            return;
    }
}

// The offscreen platform with the two screens of screenSizes(), side by side, before the
// application connects to it.
int main(int argc, char *argv[])
{
    QTemporaryDir configDir;
    QJsonArray screens;
    int x = 0;
    for (const ScreenSize &s : screenSizes()) {
        screens.append(QJsonObject{{u"name"_s, s.name},
                                   {u"x"_s, x},
                                   {u"y"_s, 0},
                                   {u"width"_s, s.size.width()},
                                   {u"height"_s, s.size.height()},
                                   {u"logicalDpi"_s, 96},
                                   {u"logicalBaseDpi"_s, 96},
                                   {u"dpr"_s, 1.0}});
        x += s.size.width();
    }
    const QString config = configDir.filePath(u"screens.json"_s);
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(QJsonDocument(QJsonObject{{u"screens"_s, screens}}).toJson()) < 0)
        return 2;
    file.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.toLocal8Bit());
    QApplication app(argc, argv);
    TestLayoutFit test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_layoutfit.moc"
