extension AnswerFit {
    /// Committed days that share a schedule (tier, window, reminders received before, reminders,
    /// close), with what happened on them: the likelihood's unit (the reminders' looks' chances are
    /// computed once for all its outcomes).
    struct Schedule: Sendable {
        var tier: Int
        var window: Bool
        /// Each reminder's look: its first minute, and the reminders received at each of its minutes.
        var looks: [(start: Int, received: [Int])]
        var outcomes: [Outcome]

        /// Days missed (`answer` nil) or answered at a minute, with the first look's chance of
        /// being at that minute and of being at it or before.
        struct Outcome: Sendable {
            var answer: Int?
            var yes: Bool
            var days: Double
            var firstAt: Double
            var firstBy: Double
        }
    }

    /// The schedules of `counts`, in a fixed order (the same sums every run).
    static func schedules(_ counts: Counts, held: Held) -> [Schedule] {
        let sorted = counts.sorted { order($0.key, $1.key) }
        var schedules: [Schedule] = []
        var last: Pattern?
        let (lo, hi) = (held.firstLook.lowerBound, held.firstLook.upperBound)
        let width = Double(hi - lo + 1)
        for (p, n) in sorted {
            var key = p
            (key.answer, key.yes) = (nil, false)
            if key != last {
                last = key
                let looks = p.reminders.compactMap { r -> (start: Int, received: [Int])? in
                    let minutes = (1...10).map { r + $0 }.filter { $0 < p.close }
                    guard let start = minutes.first else { return nil }
                    return (start, minutes.map { t in p.before + p.reminders.count { $0 <= t } })
                }
                schedules.append(Schedule(tier: p.tier, window: p.window, looks: looks, outcomes: []))
            }
            // The first look's minute: uniform over the range, at the latest a minute before the close.
            let cap = p.close - 1
            var at = 0.0, by = 0.0
            if let t = p.answer {
                at = t < cap ? ((lo...hi).contains(t) ? 1 / width : 0) : t == cap ? Double(max(0, hi - max(lo, cap) + 1)) / width : 0
                by = t >= cap ? 1 : Double(max(0, min(hi, t) - lo + 1)) / width
            }
            schedules[schedules.count - 1].outcomes.append(
                Schedule.Outcome(answer: p.answer, yes: p.yes, days: n, firstAt: at, firstBy: by))
        }
        return schedules
    }

    /// A schedule's looks at parameters `th`: the first look's chances of YES, of NO and of an
    /// answer; each reminder look's chance of answering at each of its minutes, and of having
    /// answered by each (running sums: each minute a tenth of the look's).
    struct Chances {
        var yes: Dual
        var no: Dual
        var first: Dual
        var answers: [[Dual]]
        var by: [[Dual]]

        init(_ s: Schedule, _ th: [Dual]) {
            yes = Dual.sigmoid(s.window ? th[0] + th[2] : th[0])
            let baseNo = (1 - Dual.sigmoid(th[0])) * Dual.sigmoid(th[1])
            no = baseNo.v > 1 - yes.v ? 1 - yes : baseNo
            first = yes + no
            let rho = th[3 + s.tier], phi = th[7]
            (answers, by) = ([], [])
            for look in s.looks {
                let chances = look.received.map { Dual.sigmoid(rho - phi * Dual(Double($0))) }
                var sums = [Dual(0)]
                for c in chances { sums.append(sums[sums.count - 1] + c * 0.1) }
                answers.append(chances)
                by.append(sums)
            }
        }

        /// The chance that no look answered: the day is missed.
        var missed: Dual {
            var l = 1 - first
            for sums in by { l *= 1 - sums[sums.count - 1] }
            return l
        }
    }

    /// The parameters `theta` with their own derivatives.
    static func parameters(_ theta: [Double]) -> [Dual] { theta.indices.map { Dual(theta[$0], parameter: $0) } }

    /// The log-likelihood of `schedules` at `theta` (``size`` values, the log-odds scale), its
    /// gradient, and the sum of the days' outer products of their gradients (the information's
    /// estimate Newton's steps use); nil when a day has no chance.
    static func evaluate(_ schedules: [Schedule], _ theta: [Double]) -> (value: Double, gradient: [Double], outer: [[Double]])? {
        let th = parameters(theta)
        var value = 0.0, gradient = SIMD16<Double>.zero
        var outer = Array(repeating: Array(repeating: 0.0, count: size), count: size)
        let share = Dual.sigmoid(th[8])
        for s in schedules {
            let c = Chances(s, th)
            let (yes, no, first, answers, by) = (c.yes, c.no, c.first, c.answers, c.by)
            /// The chance that reminder look `i` did not answer before minute `t` (at `t` too when `atToo`).
            func silent(_ i: Int, before t: Int, atToo: Bool) -> Dual {
                let k = min(answers[i].count, max(0, t - s.looks[i].start + (atToo ? 1 : 0)))
                return 1 - by[i][k]
            }
            for outcome in s.outcomes {
                var l = Dual(0)
                if let t = outcome.answer {
                    // The first look answered at t (no reminder look before it did), or reminder look
                    // j did (the first look, and the reminder looks before it at the same minute, did not).
                    if outcome.firstAt > 0 {
                        var term = (outcome.yes ? yes : no) * outcome.firstAt
                        for i in s.looks.indices { term *= silent(i, before: t, atToo: false) }
                        l += term
                    }
                    for j in s.looks.indices {
                        let k = t - s.looks[j].start
                        guard k >= 0, k < answers[j].count else { continue }
                        var term = answers[j][k] * (outcome.yes ? share : 1 - share) * 0.1 * (1 - first * outcome.firstBy)
                        for i in s.looks.indices where i != j { term *= silent(i, before: t, atToo: i < j) }
                        l += term
                    }
                } else {
                    l = c.missed
                }
                guard l.v > 0 else { return nil }
                let log = Dual.log(l)
                value += outcome.days * log.v
                gradient += log.g * outcome.days
                for a in 0..<size where log.g[a] != 0 {
                    for b in 0...a { outer[a][b] += outcome.days * log.g[a] * log.g[b] }
                }
            }
        }
        for a in 0..<size { for b in 0..<a { outer[b][a] = outer[a][b] } }
        return (value, (0..<size).map { gradient[$0] }, outer)
    }
}
