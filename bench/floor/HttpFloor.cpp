// Floor of the provider-API benchmark: the provider's own HTTP stack (cardhour_sim_http:
// parser, router, keep-alive server) answering GET routes with constant bodies, so that
// what the provider adds on top (authentication, SQLite, JSON) shows as the ratio.
//
//   cardhour-bench-http-floor PATH=FILE [PATH=FILE ...]
// serves each FILE's bytes as application/json at PATH on 127.0.0.1 (a free port) and prints
// "listening on 127.0.0.1:PORT".
#include "http/HttpServer.h"
#include "http/Router.h"
#include "http/ServingProcess.h"

#include <QCoreApplication>
#include <QFile>

#include <cstdio>

using namespace Qt::StringLiterals;
using namespace cardhour::http;

int main(int argc, char *argv[])
{
    prepareServingProcess(); // as the provider does: the floor is its HTTP stack as it runs
    QCoreApplication app(argc, argv);
    Router router;
    const QStringList arguments = QCoreApplication::arguments().mid(1);
    if (arguments.isEmpty()) {
        std::fprintf(stderr, "usage: cardhour-bench-http-floor PATH=FILE [PATH=FILE ...]\n");
        return 2;
    }
    for (const QString &argument : arguments) {
        const qsizetype eq = argument.indexOf(u'=');
        QFile file(argument.mid(eq + 1));
        if (eq <= 0 || !file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "cardhour-bench-http-floor: cannot use \"%s\" (want PATH=FILE)\n",
                         qPrintable(argument));
            return 2;
        }
        const QByteArray body = file.readAll();
        router.add("GET", argument.left(eq), [body](Request &) {
            Response response;
            response.setHeader("Content-Type", "application/json; charset=utf-8");
            response.body = body;
            return response;
        });
    }
    HttpServer server(router);
    if (!server.listen(QHostAddress::LocalHost, 0)) {
        std::fprintf(stderr, "cardhour-bench-http-floor: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    std::printf("listening on 127.0.0.1:%u\n", unsigned(server.serverPort()));
    std::fflush(stdout);
    return QCoreApplication::exec();
}
