import Foundation
import LuaHost

/// One loaded rule file: the table it returned, and its source map for messages.
struct RuleFile {
    let name: String
    let value: LuaValue
    let sourceMap: LuaSourceMap

    /// Loads `name` from the rule sources; nil (with the problem recorded) when it is missing or fails.
    static func load(_ fileName: String, from sources: RuleSources, host: LuaHost, problems: inout [RuleProblem]) -> RuleFile? {
        guard let (url, name) = sources.locate(fileName), let data = FileManager.default.contents(atPath: url.path) else {
            problems.append(RuleProblem(file: fileName, message: "missing: a rule set needs this file (or an `extends` file naming a folder that has it)"))
            return nil
        }
        do {
            let values = try host.load(bytes: Array(data), chunkName: name)
            guard let first = values.first, first.tableValue != nil else {
                problems.append(RuleProblem(file: name, line: nil,
                    message: "a rule file must return a table, found \(values.first?.errorDescription ?? "nothing")"))
                return nil
            }
            return RuleFile(name: name, value: first, sourceMap: LuaSourceMap(source: String(decoding: data, as: UTF8.self)))
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
    func problem(at path: String, _ message: String) -> RuleProblem {
        RuleProblem(file: name, line: sourceMap.line(for: path), message: message)
    }

    /// A problem found by calling `function`, at the line that defines it.
    func problem(in function: LuaFunction, _ message: String) -> RuleProblem {
        RuleProblem(file: name, line: function.line > 0 ? function.line : nil, message: message)
    }
}
