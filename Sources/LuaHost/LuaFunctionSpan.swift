/// Where each function of a Lua file starts and ends: from the line of its `function` keyword
/// (the line Lua's debug information gives as where it is defined, `LuaFunction.line`) to the line
/// of its `end`. Read from the tokens, as `LuaBranch` reads the `if` statements: every function,
/// named or not, nested or not, in the order of its `function` keyword.
public struct LuaFunctionSpan: Sendable, Equatable {
    public var lines: ClosedRange<Int>

    public init(lines: ClosedRange<Int>) {
        self.lines = lines
    }

    public static func spans(in source: String) -> [LuaFunctionSpan] {
        enum Block { case function(Int), other }
        var stack: [Block] = []
        var spans: [(start: Int, span: LuaFunctionSpan)] = []
        for (token, line) in LuaSourceMap.Tokenizer.tokens(of: source) {
            switch token {
            case .name("function"): stack.append(.function(line))
            case .name("if"), .name("do"), .name("repeat"): stack.append(.other)
            case .name("end"), .name("until"):
                if case .function(let start)? = stack.popLast() { spans.append((start, LuaFunctionSpan(lines: start...line))) }
            default: break
            }
        }
        return spans.sorted { ($0.start, -$0.span.lines.upperBound) < ($1.start, -$1.span.lines.upperBound) }.map(\.span)
    }
}
