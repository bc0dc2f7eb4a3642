/// One self-contained HTML page (no script, font, style sheet or image from elsewhere): headings,
/// paragraphs, tables of parameters, inline SVG figures, and data for tools in
/// `<script type="application/json">` elements (data only, never run). Built in order.
package struct HTMLPage: Sendable {
    package var title: String
    private var body = ""

    package init(title: String) { self.title = title }

    package mutating func heading(_ text: String, level: Int = 2) {
        body += "<h\(level)>\(SVGText.escape(text))</h\(level)>\n"
    }

    package mutating func paragraph(_ text: String, className: String? = nil) {
        body += "<p\(className.map { " class=\"\(SVGText.escape($0))\"" } ?? "")>\(SVGText.escape(text))</p>\n"
    }

    /// A table of name and value rows (the first cell of each row a header).
    package mutating func table(_ rows: [(String, String)]) {
        body += "<table>\n"
        for (name, value) in rows { body += "<tr><th>\(SVGText.escape(name))</th><td>\(SVGText.escape(value))</td></tr>\n" }
        body += "</table>\n"
    }

    /// A table of columns: a header row, then a row per item (`marked` rows in bold), numbers
    /// (every column but the first) aligned right.
    package mutating func grid(_ header: [String], _ rows: [[String]], marked: [Bool] = []) {
        body += "<table class=\"grid\">\n<tr>" + header.map { "<th>\(SVGText.escape($0))</th>" }.joined() + "</tr>\n"
        for (i, row) in rows.enumerated() {
            let mark = i < marked.count && marked[i] ? " class=\"marked\"" : ""
            body += "<tr\(mark)>" + row.map { "<td>\(SVGText.escape($0))</td>" }.joined() + "</tr>\n"
        }
        body += "</table>\n"
    }

    /// An inline SVG (a chart's `svg()`), scaled to the page's width.
    package mutating func figure(_ svg: String) { body += "<figure>\n\(svg)</figure>\n" }

    /// JSON for tools, embedded as is but for `</`, written `<\/`, and `<!--`, written `<\u0021--`
    /// (the same JSON strings), so that no text can close the element or change how it is parsed.
    package mutating func data(id: String, json: String) {
        let safe = json.replacingOccurrences(of: "</", with: "<\\/").replacingOccurrences(of: "<!--", with: "<\\u0021--")
        body += "<script type=\"application/json\" id=\"\(SVGText.escape(id))\">\n\(safe)</script>\n"
    }

    static let style = """
        body { font-family: Helvetica, Arial, sans-serif; color: #222; max-width: 1140px; margin: 24px auto; padding: 0 16px; }
        h1 { font-size: 24px; margin-bottom: 4px; }
        h2 { font-size: 20px; margin-top: 36px; border-bottom: 2px solid #ddd; padding-bottom: 4px; }
        p.note { color: #555; }
        p.alert { background: #fdecea; border-left: 6px solid #c62828; color: #b71c1c; font-weight: bold; padding: 10px 14px; }
        p.verdict { background: #edf7ed; border-left: 6px solid #2e7d32; padding: 10px 14px; }
        table { border-collapse: collapse; margin: 12px 0; }
        th, td { text-align: left; padding: 4px 14px 4px 0; vertical-align: top; }
        th { color: #555; font-weight: normal; }
        table.grid td, table.grid th { border-bottom: 1px solid #e4e4e4; padding: 4px 10px; }
        table.grid td + td, table.grid th + th { text-align: right; }
        table.grid tr.marked td { font-weight: bold; color: #0d47a1; }
        figure { margin: 16px 0; }
        figure svg { width: 100%; height: auto; display: block; }
        """

    package func html() -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(SVGText.escape(title))</title>
        <style>
        \(Self.style)
        </style>
        </head>
        <body>
        <h1>\(SVGText.escape(title))</h1>
        \(body)</body>
        </html>

        """
    }
}
