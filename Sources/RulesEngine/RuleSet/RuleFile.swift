import Foundation
import LuaHost

/// One loaded rule file: the table it returned, and its source map for messages.
struct RuleFile {
    let name: String
    var value: LuaValue
    let sourceMap: LuaSourceMap
    /// The files it extends (the same file of the folders its `extends` names), nearest first.
    var baseMaps: [(name: String, map: LuaSourceMap)] = []

    /// Loads `name` from the rule sources; nil (with the problem recorded) when it is missing or fails.
    static func load(_ fileName: String, from sources: RuleSources, host: LuaHost, problems: inout [RuleProblem]) -> RuleFile? {
        let found = sources.locateAll(fileName)
        guard let name = found.first?.chunkName else {
            problems.append(RuleProblem(file: fileName, message: "missing: a rule set needs this file (or an `extends` file naming a folder that has it)"))
            return nil
        }
        // The size is checked before reading; a directory or a device is named for what it is.
        var layers: [(bytes: [UInt8], chunkName: String)] = []
        for file in found.reversed() {
            do {
                layers.append((try SourceFile.read(file.url.path, maxBytes: host.limits.maxSourceBytes), file.chunkName))
            } catch {
                problems.append(RuleProblem(file: file.chunkName, message: error.description))
                return nil
            }
        }
        let maps = layers.reversed().map { ($0.1, LuaSourceMap(source: String(decoding: $0.0, as: UTF8.self))) }
        var file = RuleFile(name: name, value: .nil, sourceMap: maps[0].1, baseMaps: Array(maps.dropFirst()))
        do {
            let values = try host.load(layers: layers)
            guard let first = values.first, first.tableValue != nil else {
                problems.append(RuleProblem(file: name, line: nil,
                    message: "a rule file must return a table, found \(values.first?.errorDescription ?? "nothing")"))
                return nil
            }
            file.value = first
            return file
        } catch let error as LuaError where error.line == nil && error.path != nil {
            // A knob the host cannot read (a cycle, text that is not UTF-8): at the line of its field.
            problems.append(file.problem(at: error.path!, "\(error.path!): \(error.message)"))
            return nil
        } catch let error as LuaError {
            problems.append(RuleProblem(file: error.file ?? name, line: error.line, message: error.message))
            return nil
        } catch {
            problems.append(RuleProblem(file: name, message: "\(error)"))
            return nil
        }
    }

    /// Decodes the file's table as `T`; a failure becomes a problem at the line of its field.
    func decode<T: Decodable>(_ type: T.Type, problems: inout [RuleProblem]) -> T? {
        do {
            return try LuaDecoder().decode(type, from: value, file: name)
        } catch let error as LuaError {
            problems.append(problem(at: error.path ?? "", error.path.map { "\($0): " + error.message } ?? error.message))
            return nil
        } catch {
            problems.append(RuleProblem(file: name, message: "\(error)"))
            return nil
        }
    }

    /// A problem about the field at `path` (`tiers[2].recover_after`), at the line that writes it.
    /// A knob the file does not write itself is reported where the file it extends writes it.
    func problem(at path: String, _ message: String) -> RuleProblem {
        if sourceMap.exactLine(for: path) == nil, let (base, line) = baseMaps.lazy.compactMap({ b in b.map.exactLine(for: path).map { (b.name, $0) } }).first {
            return RuleProblem(file: base, line: line, message: message)
        }
        return RuleProblem(file: name, line: sourceMap.line(for: path), message: message)
    }

    /// A problem found by calling `function`, at the line that defines it (in whichever file).
    func problem(in function: LuaFunction, _ message: String) -> RuleProblem {
        RuleProblem(file: function.source.isEmpty ? name : function.source, line: function.line > 0 ? function.line : nil, message: message)
    }
}
