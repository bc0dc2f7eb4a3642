import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// A persona's habit task beyond its daily rate: the task's frequency (on which days it is due),
/// skips, streak freezes and late completions (issue 17). Each is optional; a persona that sets
/// none of them draws exactly what it drew before.
extension PersonaSpec.Habit {
    /// `frequency = { kind = "weekdays", weekdays = { 1, 3, 5 } }`: the kinds and fields a streak
    /// rule sees in `task.frequency` (`daily`, `weekdays`, `times_in_days` with `times` and `days`,
    /// `every_n_days` with `every`, `days_of_month` with `days_of_month`).
    package struct Frequency: Decodable, Sendable, Equatable {
        package var kind: String
        package var weekdays: [Int]?
        package var times: Int?
        package var days: Int?
        package var every: Int?
        package var daysOfMonth: [Int]?
        enum CodingKeys: String, CodingKey { case kind, weekdays, times, days, every, daysOfMonth = "days_of_month" }

        /// The kinds, as rules and persona files name them, and the engine's.
        static let kinds: [(String, FrequencyType)] = [
            ("daily", .daily), ("weekdays", .specificDays), ("times_in_days", .timesInDays), ("every_n_days", .everyNDays),
            ("days_of_month", .daysOfMonth),
        ]

        var type: FrequencyType? { Self.kinds.first { $0.0 == kind }?.1 }
    }

    /// `goal = { type = "distance", unit = "km", target = 5, value = { 3, 8 } }`: the task's goal
    /// (`habit_task`'s `goal_type`, `goal_unit` — default the type's first unit —, `goal_value`,
    /// `goal_direction` "at_least" or "at_most"), and each completion's value, drawn uniformly
    /// between `value`'s bounds (to 0.1).
    package struct Goal: Decodable, Sendable, Equatable {
        package var type: String
        package var unit: String?
        package var target: Double
        package var direction: String = "at_least"
        package var value: [Double]
        enum CodingKeys: String, CodingKey { case type, unit, target, direction, value }
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            type = try c.decode(String.self, forKey: .type)
            unit = try c.decodeIfPresent(String.self, forKey: .unit)
            target = try c.decode(Double.self, forKey: .target)
            direction = try c.decodeIfPresent(String.self, forKey: .direction) ?? direction
            value = try c.decode([Double].self, forKey: .value)
        }

        /// The types a goal may have (every one but `none`).
        static let types = GoalType.allCases.filter { $0 != .none }.map(\.rawValue)
        static let directions = GoalDirection.allCases.map(\.eventName)

        var goalType: GoalType? { GoalType(rawValue: type).flatMap { $0 == .none ? nil : $0 } }
        var goalDirection: GoalDirection? { GoalDirection.allCases.first { $0.eventName == direction } }

        /// The largest value a completion may log.
        static let maxValue = 1_000_000.0
    }

    /// `freeze = { equip = 0.1, max = 2, use = 1 }`: while it holds fewer than `max` freezes, the
    /// user equips one each day with probability `equip` — or, with `every = n` instead, on the
    /// first day and every n days after — (`habit_freeze` "equip", as a Duolingo user buys one);
    /// on a due day it would miss (and does not skip), holding one, it uses it with probability
    /// `use` (`habit_freeze` "use"). What a freeze does is the rule set's to decide.
    package struct Freeze: Decodable, Sendable, Equatable {
        package var equip: Double?
        package var every: Int?
        package var max: Int = 2
        package var use: Double = 1
        enum CodingKeys: String, CodingKey { case equip, every, max, use }
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            equip = try c.decodeIfPresent(Double.self, forKey: .equip)
            every = try c.decodeIfPresent(Int.self, forKey: .every)
            max = try c.decodeIfPresent(Int.self, forKey: .max) ?? 2
            use = try c.decodeIfPresent(Double.self, forKey: .use) ?? 1
        }
    }

    /// Whether the task draws anything beyond its completions (the habits stream draws more).
    var marksDays: Bool { skip != nil || freeze != nil || late != nil }

    /// The `habit_task` event defining the task on the user's first day, `start` (its start date
    /// when the persona sets a frequency, so that the persona and the engine count the same due days).
    func definition(start: DayID) -> HabitTaskDefinition {
        var definition = HabitTaskDefinition(task: task, timesPerDay: timesPerDay)
        if let frequency, let type = frequency.type {
            definition.frequency = type
            definition.scheduledDays = frequency.weekdays
            (definition.times, definition.days, definition.every) = (frequency.times, frequency.days, frequency.every)
            definition.daysOfMonth = frequency.daysOfMonth
            definition.startDate = start
        }
        if let goal, let type = goal.goalType {
            definition.goalType = type
            definition.goalValue = goal.target
            definition.goalUnit = goal.unit ?? type.compatibleUnits.first
            definition.goalDirection = goal.goalDirection
        }
        return definition
    }

    /// The task as the model holds it, for its due days (its title and times a day do not matter
    /// here, and are checked apart), or the model's objection to its frequency.
    func modelTask(start: DayID) throws -> HabitTask {
        var task = HabitTask(
            id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), userID: UserID(1), title: "task", createdAt: 0,
            updatedAt: 0, startDate: start)
        if let frequency, let type = frequency.type {
            task.frequencyType = type
            task.scheduledDays = frequency.weekdays.map { $0.compactMap(Weekday.init(rawValue:)) } ?? Weekday.allCases
            task.frequencyTimes = frequency.times
            task.frequencyDays = frequency.days ?? frequency.every
            task.daysOfMonth = frequency.daysOfMonth ?? []
        }
        try task.validate()
        return task
    }
}

extension PersonaChecks.Findings {
    /// A name that is not one of `names`: what was expected, and the closest name.
    mutating func oneOf(_ path: String, _ names: [String], found: String) {
        var message = "expected one of \(names.joined(separator: ", ")), found \(PersonaChecks.quoted(found))"
        if let suggestion = Suggestion.closest(to: found, among: names) { message += "; did you mean '\(suggestion)'?" }
        add(path, message)
    }
}

extension PersonaChecks {
    /// The problems of a habit's frequency, goal, skip, freeze and late (at `path`, `habits[i]`).
    static func habitProblems(_ habit: PersonaSpec.Habit, at path: String, _ f: inout Findings) {
        if let goal = habit.goal { goalProblems(goal, at: "\(path).goal", &f) }
        if let skip = habit.skip { f.probability("\(path).skip", skip) }
        if let late = habit.late { f.probability("\(path).late", late) }
        if let freeze = habit.freeze {
            switch (freeze.equip, freeze.every) {
            case (let equip?, nil): f.probability("\(path).freeze.equip", equip)
            case (nil, let every?):
                if !(1...365).contains(every) { f.add("\(path).freeze.every", "expected 1…365 days, found \(every)") }
            case (_?, _?): f.add("\(path).freeze.every", "expected either equip (a probability a day) or every (days), found both")
            case (nil, nil): f.add("\(path).freeze", "expected equip (a probability a day) or every (days), found neither")
            }
            f.probability("\(path).freeze.use", freeze.use)
            if !(1...10).contains(freeze.max) { f.add("\(path).freeze.max", "expected 1…10 freezes held at a time, found \(freeze.max)") }
        }
        guard let frequency = habit.frequency else { return }
        let at = "\(path).frequency"
        guard let type = frequency.type else {
            f.oneOf("\(at).kind", PersonaSpec.Habit.Frequency.kinds.map(\.0), found: frequency.kind)
            return
        }
        // The fields of other kinds, named in the persona's words (the model would name its own).
        let fields: [(String, Bool, [FrequencyType])] = [
            ("weekdays", frequency.weekdays != nil, [.specificDays]), ("times", frequency.times != nil, [.timesInDays]),
            ("days", frequency.days != nil, [.timesInDays]), ("every", frequency.every != nil, [.everyNDays]),
            ("days_of_month", frequency.daysOfMonth != nil, [.daysOfMonth]),
        ]
        var wrong = false
        for (name, present, kinds) in fields {
            if present, !kinds.contains(type) {
                f.add(
                    "\(at).\(name)",
                    "expected only with kind \"\(PersonaSpec.Habit.Frequency.kinds.first { $0.1 == kinds[0] }!.0)\", found kind \"\(frequency.kind)\""
                )
                wrong = true
            } else if !present, kinds.contains(type) {
                f.add("\(at).\(name)", "expected with kind \"\(frequency.kind)\", found none")
                wrong = true
            }
        }
        if let weekdays = frequency.weekdays {
            if weekdays.isEmpty || weekdays.contains(where: { !(1...7).contains($0) }) || Set(weekdays).count != weekdays.count {
                f.add("\(at).weekdays", "expected distinct ISO weekdays 1 (Monday)…7 (Sunday), found \(weekdays)")
                wrong = true
            }
        }
        guard !wrong else { return }
        do { _ = try habit.modelTask(start: DayID(ordinal: 0)!) } catch let error as ModelValidationError {
            let field =
                ["frequencyTimes": "times", "frequencyDays": type == .everyNDays ? "every" : "days", "daysOfMonth": "days_of_month"][
                    error.field] ?? error.field
            f.add("\(at).\(field)", "expected \(error.rule), found \(error.found)")
        } catch {
            f.add(at, "\(error)")
        }
    }
}

extension PersonaChecks {
    /// The problems of a habit's goal (at `path`, `habits[i].goal`).
    static func goalProblems(_ goal: PersonaSpec.Habit.Goal, at path: String, _ f: inout Findings) {
        typealias Goal = PersonaSpec.Habit.Goal
        if let type = goal.goalType {
            if let unit = goal.unit, !type.compatibleUnits.contains(unit) { f.oneOf("\(path).unit", type.compatibleUnits, found: unit) }
        } else {
            f.oneOf("\(path).type", Goal.types, found: goal.type)
        }
        if goal.goalDirection == nil { f.oneOf("\(path).direction", Goal.directions, found: goal.direction) }
        if !(goal.target > 0 && goal.target <= Goal.maxValue) {
            f.add("\(path).target", "expected a number above 0, at most \(number(Goal.maxValue)), found \(goal.target)")
        }
        if goal.value.count != 2 {
            f.add("\(path).value", "expected two numbers { low, high }, found \(goal.value.count)")
        } else if !(0 <= goal.value[0] && goal.value[0] <= goal.value[1] && goal.value[1] <= Goal.maxValue) {
            f.add(
                "\(path).value",
                "expected { low, high } with 0 ≤ low ≤ high ≤ \(number(Goal.maxValue)), found { \(goal.value[0]), \(goal.value[1]) }")
        }
    }
}
