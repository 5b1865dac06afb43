#include "Icons.h"

#include <QFile>
#include <QHash>
#include <QIconEngine>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QPixmapCache>
#include <QSvgRenderer>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

namespace {

QString fileName(Icon which)
{
    switch (which) {
    case Icon::Home:
        return u"house"_s;
    case Icon::Instances:
        return u"server"_s;
    case Icon::Snapshots:
        return u"camera"_s;
    case Icon::Storage:
        return u"hard-drive"_s;
    case Icon::Billing:
        return u"wallet"_s;
    case Icon::Keys:
        return u"key-round"_s;
    case Icon::Launch:
        return u"plus"_s;
    case Icon::Reload:
        return u"refresh-cw"_s;
    case Icon::Terminal:
        return u"square-terminal"_s;
    case Icon::SystemTerminal:
        return u"monitor"_s;
    case Icon::Stop:
        return u"square"_s;
    case Icon::Start:
        return u"play"_s;
    case Icon::Terminate:
        return u"trash-2"_s;
    case Icon::Copy:
        return u"copy"_s;
    case Icon::SshConfig:
        return u"file-code"_s;
    case Icon::OpenApp:
        return u"external-link"_s;
    case Icon::Upload:
        return u"upload"_s;
    case Icon::Download:
        return u"download"_s;
    case Icon::AddFolder:
        return u"folder-plus"_s;
    case Icon::Restore:
        return u"archive-restore"_s;
    case Icon::TopUp:
        return u"circle-dollar-sign"_s;
    case Icon::Settings:
        return u"settings"_s;
    case Icon::Connect:
        return u"plug"_s;
    case Icon::LogOut:
        return u"log-out"_s;
    case Icon::MoreRight:
        return u"chevrons-right"_s;
    case Icon::MoreDown:
        return u"chevrons-down"_s;
    }
    return {};
}

// Draws one line-icon SVG in a colour per mode. The SVG is read once per engine and each size is
// rendered when first painted, so building the menus costs no rendering at start.
class TintedSvgEngine : public QIconEngine
{
public:
    TintedSvgEngine(const QString &path, const QPalette &palette)
        : m_path(path), m_normal(palette.color(QPalette::Active, QPalette::WindowText)),
          m_disabled(palette.color(QPalette::Disabled, QPalette::WindowText)),
          m_selected(palette.color(QPalette::Active, QPalette::HighlightedText))
    {}

    QIconEngine *clone() const override { return new TintedSvgEngine(*this); }

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State) override
    {
        QSvgRenderer renderer(svgFor(mode));
        renderer.render(painter, rect);
    }

    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        return scaledPixmap(size, mode, state, 1.0);
    }

    QPixmap scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State state,
                         qreal scale) override
    {
        const QSize device = size * scale;
        const QColor colour = colourFor(mode);
        const QString key = u"cardhour-icon:%1:%2:%3x%4"_s.arg(m_path, colour.name(QColor::HexArgb))
                                .arg(device.width())
                                .arg(device.height());
        QPixmap pixmap;
        if (QPixmapCache::find(key, &pixmap))
            return pixmap;
        pixmap = QPixmap(device);
        pixmap.fill(Qt::transparent);
        {
            QPainter painter(&pixmap);
            paint(&painter, QRect(QPoint(0, 0), device), mode, state);
        }
        pixmap.setDevicePixelRatio(scale);
        QPixmapCache::insert(key, pixmap);
        return pixmap;
    }

    QString key() const override { return u"cardhour-tinted-svg"_s; }

private:
    QColor colourFor(QIcon::Mode mode) const
    {
        switch (mode) {
        case QIcon::Disabled:
            return m_disabled;
        case QIcon::Selected:
            return m_selected;
        default:
            return m_normal;
        }
    }

    QByteArray svgFor(QIcon::Mode mode)
    {
        if (m_svg.isNull()) {
            QFile file(m_path);
            m_svg = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("");
        }
        QByteArray svg = m_svg;
        return svg.replace("currentColor", colourFor(mode).name().toLatin1());
    }

    QString m_path;
    QColor m_normal;
    QColor m_disabled;
    QColor m_selected;
    QByteArray m_svg;
};

} // namespace

QString Icons::resourcePath(Icon which)
{
    return u":/icons/%1.svg"_s.arg(fileName(which));
}

QIcon Icons::icon(Icon which, const QPalette &palette)
{
    return QIcon(new TintedSvgEngine(resourcePath(which), palette));
}

QIcon Icons::application()
{
    // Drawn by the same engine (the file has no currentColor): QIcon's own loader would first
    // look for and load the SVG icon-engine plugin, a cost paid at every start.
    return QIcon(new TintedSvgEngine(u":/cardhour.svg"_s, QPalette()));
}

} // namespace cardhour::ui
