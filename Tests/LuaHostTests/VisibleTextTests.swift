import LuaHost
import Testing

/// Text from outside shown on a terminal: control characters escaped, bytes that are not UTF-8
/// kept visible; a Lua file that is not UTF-8 refused at its line; a message whole past a NUL.
@Suite struct VisibleTextTests {
    @Test func controlCharactersAreEscapedButLineFeedsAndTabs() {
        #expect(VisibleText.escaping("plain é €\n\tx") == "plain é €\n\tx")
        #expect(
            VisibleText.escaping("\u{1B}[2J\u{0}\r\u{7}\u{7F}\u{9B}\u{9F}\u{A0}") == #"\u{1B}[2J\u{0}\r\u{7}\u{7F}\u{9B}\u{9F}"# + "\u{A0}")
        // Escaping what is escaped changes nothing: the escapes are printable.
        let once = VisibleText.escaping("a\u{1B}b")
        #expect(VisibleText.escaping(once) == once)
    }

    @Test func bytesThatAreNotUTF8StayVisibleEachItsOwn() {
        #expect(VisibleText.decoding(Array("bob".utf8) + [0xFF]) == #"bob\xFF"#)
        #expect(VisibleText.decoding(Array("bob".utf8) + [0xFE]) == #"bob\xFE"#)
        #expect(VisibleText.decoding([0x1B, 0xC3, 0xA9, 0xC3]) == #"\u{1B}é\xC3"#)
        #expect(VisibleText.decoding([0x1B, 0xC3], escapingControls: false) == "\u{1B}" + #"\xC3"#)
        #expect(VisibleText.decoding(Array(repeating: 0xFF, count: 50), limit: 2) == #"\xFF\xFF…"#)
        #expect(VisibleText.firstLineNotUTF8(in: Array("a\nb\n".utf8)) == nil)
        let bad = VisibleText.firstLineNotUTF8(in: Array("ok\n  x = \"caf".utf8) + [0xE9] + Array("\"\nlast".utf8))
        #expect(bad?.line == 2 && bad?.text == #"x = "caf\xE9""#)
    }

    /// A Lua file with a byte that is not UTF-8 is refused at its line, before anything runs; the
    /// same byte written as an escape is a string like any other. A binary chunk is still refused
    /// as one.
    @Test func aLuaFileThatIsNotUTF8IsRefusedAtItsLine() throws {
        let host = try LuaHost()
        var refused: LuaError?
        do {
            try host.load(bytes: Array("-- é\nreturn { name = \"caf".utf8) + [0xE9] + Array("\" }\n".utf8), chunkName: "p.lua")
        } catch let error as LuaError {
            refused = error
        }
        #expect(refused?.kind == .syntax && refused?.file == "p.lua" && refused?.line == 2, "\(String(describing: refused))")
        #expect(refused?.message.hasPrefix(#"not UTF-8 text: return { name = "caf\xE9" }"#) == true, "\(String(describing: refused))")
        #expect(throws: LuaError.self) { try host.load(#"return "caf\xE9""#, chunkName: "p.lua") }  // loads; not UTF-8 text for the host
        do {
            try host.load(bytes: [0x1B, 0x4C, 0x75, 0x61, 0x54, 0x00, 0x19, 0x93, 0xFF], chunkName: "binary.lua")
            Issue.record("a binary chunk loaded")
        } catch let error as LuaError {
            #expect(error.message.contains("binary chunk"), "\(error)")
        }
        try expectUsable(host)
    }

    /// A NUL in an error's message cut the message there (the traceback handler took it as a C
    /// string); what follows is kept, and a byte that is not UTF-8 stays visible.
    @Test func anErrorMessageIsWholePastANul() throws {
        let error = try loadError(#"error("red\0after\xff")"#, name: "e.lua")
        #expect(error.file == "e.lua" && error.line == 1)
        #expect(error.message == "red\u{0}after" + #"\xFF"#, "\(error.message)")
        let deep = try loadError(
            """
            local function down(n) if n == 0 then error("deep\\0end") end return down(n - 1) + 1 end
            down(40)
            """, name: "d.lua")
        #expect(deep.message == "deep\u{0}end", "\(deep.message)")
        #expect(deep.traceback?.contains("deeper levels left out") == true)
    }

    /// `print` goes to the handler with its bytes visible; to the default log escaped.
    @Test func printKeepsBytesVisible() throws {
        let host = try LuaHost()
        var lines: [String] = []
        host.printHandler = { lines.append($0) }
        try host.load(#"print("a\27[2J", "\xfe")"#, chunkName: "p.lua")
        #expect(lines == ["a\u{1B}[2J\t" + #"\xFE"#])
    }
}
