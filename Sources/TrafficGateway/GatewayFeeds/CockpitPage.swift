/// The cockpit page: one HTML document, one style sheet, one script, hand-written as real files
/// in `Feeds/Page/` (`index.html`, `style.css`, `app.js`) and compiled into the binary by
/// `scripts/embed-page.py` (`CockpitPageFiles.swift`; `.ci/run` checks it is current and that the
/// script parses). No framework, no CDN, no web font, no map tile: it works on a Stratux Wi-Fi
/// with no internet. Panels by URL fragment: `#traffic` (default), `#alerts`, `#notams`,
/// `#weather`, `#flights` (the logbook: a flight's track over the airspace outlines and its
/// altitude profile drawn offline, the debrief, the exports), `#status`. Everything a person reads (callsigns, NOTAM texts, station ids,
/// METARs) is DOM text; only the scope's rings, areas and symbols are canvas pixels.
///
/// Data: `/api/traffic` once a second while the traffic panel shows, the other panels at 2–60 s,
/// alert changes live over the `/alerts` Server-Sent Events stream.
package enum CockpitPage {
    /// Served with every asset: only this server may be reached, nothing inline, no framing.
    package static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// Bytes of the three assets together (the page weight).
    package static var weight: Int { html.utf8.count + css.utf8.count + javascript.utf8.count }
}
