import Foundation
import LuaHost
import Testing

/// Files are read only when they are regular files of an acceptable size, checked before reading.
@Suite struct SourceFileTests {
    func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sourcefile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func whatIsNotARegularFileIsNamed() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: SourceFile.Failure.notRegularFile(kind: "a directory")) { try SourceFile.read(dir.path, maxBytes: 100) }
        #expect(throws: SourceFile.Failure.notRegularFile(kind: "a character device")) { try SourceFile.read("/dev/zero", maxBytes: 100) }
        #expect(throws: SourceFile.Failure.missing) { try SourceFile.read(dir.appendingPathComponent("none").path, maxBytes: 100) }
        let host = try LuaHost()
        let error = try #require(throws: LuaError.self) { try host.load(file: dir.appendingPathComponent("x.lua"), ruleRoot: dir) }
        #expect(error.description == "x.lua: no such file")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("d.lua"), withIntermediateDirectories: false)
        let directory = try #require(throws: LuaError.self) { try host.load(file: dir.appendingPathComponent("d.lua"), ruleRoot: dir) }
        #expect(directory.description == "d.lua: not a regular file (a directory)")
    }

    @Test func theSizeIsCheckedBeforeReading() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("big.lua")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 300 << 20)  // sparse: no disk used
        try handle.close()
        let host = try LuaHost()
        let start = ContinuousClock.now
        let error = try #require(throws: LuaError.self) { try host.load(file: url, ruleRoot: dir) }
        #expect(ContinuousClock.now - start < .milliseconds(500))
        #expect(error.description == "big.lua: the file is 314572800 bytes, more than the 4194304 allowed")
        try "return 1\n".write(to: url, atomically: true, encoding: .utf8)
        #expect(try SourceFile.read(url.path, maxBytes: 9) == Array("return 1\n".utf8))
        #expect(throws: SourceFile.Failure.tooLarge(bytes: 9, limit: 8)) { try SourceFile.read(url.path, maxBytes: 8) }
        #expect(try host.load(file: url, ruleRoot: dir) == [.integer(1)])
    }

    @Test func excerptsAreCapped() {
        #expect(SourceFile.excerpt("short") == "short")
        let long = SourceFile.excerpt(String(repeating: "z", count: 1000))
        #expect(long == String(repeating: "z", count: 200) + "… (1000 characters)")
    }
}
