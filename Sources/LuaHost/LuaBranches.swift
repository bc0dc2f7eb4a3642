/// The arms of a Lua file's `if` statements, and how to tell from line counts (`LineCounts`)
/// whether each ran: branch coverage.
///
/// Lua's line hook counts lines, not jumps, so an arm is judged by the lines around it:
/// - An arm that starts on a line of its own (`then` / `else` followed by a new line) ran when its
///   first line with code ran.
/// - An `if` without `else` has an implicit else arm: it ran when the last condition's line (the
///   `if`'s, or the last `elseif`'s) ran more often than the first line of the arm after it.
/// - An arm written on its condition's line and starting with `return` (`if x then return 1 end`)
///   ran when the condition's line ran more often than the line that comes next (the next
///   condition, the `else` arm's first line, or the first line after the statement); that
///   statement's implicit else ran when the line after it ran.
/// - Anything else written on one line (`if x then y = 1 end`, several conditions on one line)
///   cannot be told apart: such an arm counts as run when its line ran.
/// `and`/`or` short-cuts are not counted as branches. A `while` loop as an arm's first statement
/// counts its condition once per iteration, which can hide an implicit else that never ran.
public struct LuaBranch: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case then, elseif, `else`, implicitElse = "implicit else"
    }

    /// How the arm is judged from line counts.
    public enum Rule: Sendable, Equatable {
        /// ran when `line` ran
        case ran(Int)
        /// ran when `line` ran more often than `other`
        case ranMoreThan(Int, other: Int)
    }

    public var kind: Kind
    /// The arm's first line (for an implicit else, the line of the last condition).
    public var line: Int
    public var rule: Rule

    /// Whether the arm ran, given how often each line ran.
    public func ran(_ count: (Int) -> Int) -> Bool {
        switch rule {
        case .ran(let line): return count(line) > 0
        case .ranMoreThan(let line, let other): return count(line) > count(other)
        }
    }

    /// The arms of every `if` statement in `source` whose condition is on a line of `codeLines`
    /// (lines with code in functions; see `LuaHost.executableLines`), statement by statement in the
    /// order of their `if`, each statement's arms in order, its implicit else last.
    /// `endLines` are the lines where a function ends (its implicit return): what runs after an
    /// `if` that closes a function.
    public static func arms(in source: String, codeLines: Set<Int>, endLines: Set<Int> = []) -> [LuaBranch] {
        let tokens = LuaSourceMap.Tokenizer.tokens(of: source)
        let following = (codeLines.union(endLines)).sorted()
        func firstCode(after line: Int) -> Int? {
            var low = 0, high = following.count
            while low < high {
                let mid = (low + high) / 2
                if following[mid] <= line { low = mid + 1 } else { high = mid }
            }
            return low < following.count ? following[low] : nil
        }
        struct Arm {
            var kind: Kind
            var conditionLine: Int?  // if / elseif
            var keywordLine: Int  // of its `if`, `elseif` or `else`
            var first: Int?  // line of the first token of the body
            var startsWithReturn = false
        }
        enum Block { case statement(Int), other }
        var statements: [[Arm]] = []  // the arms of each `if` statement, in the order of their `if`
        var stack: [Block] = []
        var result: [[LuaBranch]] = []
        var awaiting: Int?  // the statement whose `then` or `else` the last token was
        func finish(_ arms: [Arm], endLine: Int) -> [LuaBranch] {
            guard let firstCondition = arms.first?.conditionLine, codeLines.contains(firstCondition) else { return [] }
            var branches: [LuaBranch] = []
            let after = firstCode(after: endLine)
            // The first line with code of each arm, within the arm (up to the next arm's keyword or
            // the `end`); an arm with none (`if x then break end`, which Lua compiles into the
            // condition's jump) is judged by its condition's line.
            let starts: [Int?] = arms.enumerated().map { i, arm in
                guard let first = arm.first else { return nil }
                let last = i + 1 < arms.count ? arms[i + 1].keywordLine : endLine
                if let line = firstCode(after: first - 1), line <= last { return line }
                return arm.conditionLine ?? arm.keywordLine
            }
            for (i, arm) in arms.enumerated() {
                guard let line = starts[i] else { continue }  // an empty arm
                let next: Int? = i + 1 < arms.count ? (arms[i + 1].conditionLine ?? arms[i + 1].first) : after
                let sameLine = line == arm.conditionLine || (arm.kind == .else && i > 0 && starts[i - 1] == line)
                if sameLine, arm.startsWithReturn, let next, next != line {
                    branches.append(LuaBranch(kind: arm.kind, line: line, rule: .ranMoreThan(line, other: next)))
                } else {
                    branches.append(LuaBranch(kind: arm.kind, line: line, rule: .ran(line)))
                }
            }
            if arms.last?.kind != .else, let last = arms.last, let condition = last.conditionLine {
                let first = starts[arms.count - 1]
                if let first, first != condition {
                    branches.append(LuaBranch(kind: .implicitElse, line: condition, rule: .ranMoreThan(condition, other: first)))
                } else if last.startsWithReturn, let after {
                    branches.append(LuaBranch(kind: .implicitElse, line: condition, rule: .ran(after)))
                } else {
                    branches.append(LuaBranch(kind: .implicitElse, line: condition, rule: .ran(condition)))
                }
            }
            return branches
        }
        for (token, line) in tokens {
            if let s = awaiting {
                awaiting = nil
                switch token {
                case .name("elseif"), .name("else"), .name("end"): break  // an empty arm
                default:
                    statements[s][statements[s].count - 1].first = line
                    statements[s][statements[s].count - 1].startsWithReturn = token == .name("return")
                }
            }
            switch token {
            case .name("if"):
                statements.append([Arm(kind: .then, conditionLine: line, keywordLine: line)])
                stack.append(.statement(statements.count - 1))
                result.append([])
            case .name("elseif"):
                guard case .statement(let s)? = stack.last else { continue }
                statements[s].append(Arm(kind: .elseif, conditionLine: line, keywordLine: line))
            case .name("else"):
                guard case .statement(let s)? = stack.last else { continue }
                statements[s].append(Arm(kind: .else, conditionLine: nil, keywordLine: line))
                awaiting = s
            case .name("then"):
                guard case .statement(let s)? = stack.last else { continue }
                awaiting = s
            case .name("function"), .name("do"), .name("repeat"):
                stack.append(.other)
            case .name("end"), .name("until"):
                guard let block = stack.popLast() else { continue }
                if case .statement(let s) = block { result[s] = finish(statements[s], endLine: line) }
            default: break
            }
        }
        // Statement by statement in the order of their `if` (a nested one after the one holding it).
        return result.flatMap { $0 }
    }
}
