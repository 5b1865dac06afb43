// Accounts::authenticate keeps the tokens it found valid in memory between writes: a token
// revoked, expired or only like a known one fails at its very next use, cache or not.
#include "ServiceFixture.h"
#include "auth/Tokens.h"

#include <QSqlQuery>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

class TestAccounts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aKnownTokenFailsOnceLoggedOut()
    {
        ServiceFixture f;
        const Accounts::Session session =
            f.accounts->signUp(u"revoke@example.com"_s, u"password123"_s);
        const QByteArray token = session.token.toLatin1();
        QCOMPARE(f.accounts->authenticate(token), session.userId);
        QCOMPARE(f.accounts->authenticate(token), session.userId); // now from memory
        f.accounts->logOut(session.token);
        QCOMPARE(f.accounts->authenticate(token), std::nullopt);
    }

    void aKnownTokenFailsOnceRevokedInTheTable()
    {
        // As another process sharing the store, or an operator, would revoke it.
        ServiceFixture f;
        const Accounts::Session session =
            f.accounts->signUp(u"row@example.com"_s, u"password123"_s);
        const QByteArray token = session.token.toLatin1();
        QCOMPARE(f.accounts->authenticate(token), session.userId);
        f.db.exec(u"UPDATE tokens SET revoked_at = ? WHERE hash = ?"_s,
                  {f.clock.nowMs(), QString::fromLatin1(tokens::hashForStorage(token))});
        QCOMPARE(f.accounts->authenticate(token), std::nullopt);
    }

    void onlyTheKnownTokenItselfIsLetIn()
    {
        ServiceFixture f;
        const Accounts::Session session =
            f.accounts->signUp(u"alike@example.com"_s, u"password123"_s);
        const QByteArray token = session.token.toLatin1();
        QCOMPARE(f.accounts->authenticate(token), session.userId);
        for (const qsizetype at : {qsizetype(0), token.size() / 2, token.size() - 1}) {
            QByteArray alike = token;
            alike[at] = alike.at(at) == 'A' ? 'B' : 'A';
            QCOMPARE(f.accounts->authenticate(alike), std::nullopt);
        }
        QCOMPARE(f.accounts->authenticate(token.first(42)), std::nullopt);
        QCOMPARE(f.accounts->authenticate(token), session.userId);
    }

    void aKnownTokenExpiresWithoutAWrite()
    {
        ServiceFixture f;
        const Accounts::Session session =
            f.accounts->signUp(u"old@example.com"_s, u"password123"_s);
        const QByteArray token = session.token.toLatin1();
        f.clock.setMs(session.expiresAtMs - 1);
        bool expired = true;
        QCOMPARE(f.accounts->authenticate(token, &expired), session.userId);
        QVERIFY(!expired);
        const quint64 before = f.db.writeVersion();
        f.clock.setMs(session.expiresAtMs);
        QCOMPARE(f.accounts->authenticate(token, &expired), std::nullopt);
        QVERIFY(expired);
        QCOMPARE(f.db.writeVersion(), before); // what failed it was the clock, not a write
    }

    void twoUsersTokensStayApart()
    {
        ServiceFixture f;
        const Accounts::Session a = f.accounts->signUp(u"a@example.com"_s, u"password123"_s);
        const Accounts::Session b = f.accounts->signUp(u"b@example.com"_s, u"password123"_s);
        for (int round = 0; round < 2; ++round) {
            QCOMPARE(f.accounts->authenticate(a.token.toLatin1()), a.userId);
            QCOMPARE(f.accounts->authenticate(b.token.toLatin1()), b.userId);
        }
        f.accounts->logOut(a.token);
        QCOMPARE(f.accounts->authenticate(a.token.toLatin1()), std::nullopt);
        QCOMPARE(f.accounts->authenticate(b.token.toLatin1()), b.userId);
    }
};

QTEST_GUILESS_MAIN(TestAccounts)
#include "tst_accounts.moc"
