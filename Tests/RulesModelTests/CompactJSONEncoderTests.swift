import Foundation
@testable import RulesModel
import Testing

/// `ModelJSON.encode` writes, byte for byte, what Foundation's `JSONEncoder` writes with sorted
/// keys and unescaped slashes: the stored JSON does not depend on which encoder wrote it.
@Suite struct CompactJSONEncoderTests {
    static func foundation<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func theSeedSamplesAreWrittenAsJSONEncoderWritesThem() throws {
        let options = try ModelJSON.decode(AvailableOptions.self, from: JSONShapeTests.optionsSample, entity: "t", field: "options")
        #expect(try ModelJSON.encode(options) == Self.foundation(options))
        var settings = try EarnedSettings.parse(json: JSONShapeTests.settingsSample)
        #expect(try ModelJSON.encode(settings) == Self.foundation(settings))
        settings.quest.qrKeyValue = "desk/42 \"key\""
        settings.quest.qrKeySetAt = 1_738_440_000_000
        #expect(try ModelJSON.encode(settings) == Self.foundation(settings))
    }

    @Test(arguments: JSONShapeTests.a7Samples)
    func everyA7PayloadIsWrittenAsJSONEncoderWritesIt(type: String, json: String) throws {
        let payload = try EventPayload.decode(type: try #require(EventType(rawValue: type)), json: json)
        #expect(try payload.json() == Self.foundation(payload.body))
    }

    /// Every payload case and options entry, with its optional values absent and present and
    /// strings that need escaping: the text each type writes itself (`JSONWritable`) is the text
    /// of its `Encodable` conformance.
    @Test func valuesThatWriteTheirOwnJSONWriteWhatJSONEncoderWrites() throws {
        let id = "id \"quoted\" back\\slash / tab\t é"
        let app = try AppID.parse("iosToken:a/b\\\"c"), day = try DayID("2026-02-01"), other = try DayID("2026-02-02")
        var payloads: [EventPayload] = [
            .dayRollover(.init(fromDayID: day, toDayID: other, carriedCredits: 0)),
            .creditsSpent(.init(appID: app, amount: 5, unlockMinutes: 10, attemptID: id)),
            .streakQualified(.init(dayID: day, method: .allCases[0], streakCountNew: 3, firstQualifiedAt: 1_738_400_000_000)),
            .streakBonusAwarded(.init(dayID: day, amount: 20, streakCount: 7)),
            .habitAwardSuspended(.init(untilDayID: other)),
            .unlockOptionSelected(.init(attemptID: id, optionType: .creditsUnlock)),
            .unlockOptionSelected(
                .init(
                    attemptID: id, optionType: .questUnlock,
                    optionPayload: .payload([("minutes", .int(15)), ("b", .array([.string(id), .null, .bool(false)]))]))),
            .unlockGranted(.init(grantID: id, appID: app, method: .allCases[0], startsAt: 1, endsAt: 600_001, attemptID: "a")),
            .unlockDenied(.init(attemptID: id, reason: .cooldownActive)),
            .questFailed(.init(questSessionID: id, attemptID: "a", questType: .qrScan, reason: .allCases[0])),
            .emergencyUsed(.init(attemptID: id, appID: app, delaySeconds: 30, unlockMinutes: 5)),
            .focusStarted(.init(sessionID: id, plannedMinutes: 25)),
            .focusEnded(.init(sessionID: id, completed: false, endedEarly: true, actualMinutes: 7)),
        ]
        for source in CreditSource.allCases {
            payloads.append(.creditsEarned(.init(source: source, amount: 4)))
            payloads.append(.creditsEarned(.init(source: source, amount: 4, focusSessionID: id, habitID: "h")))
        }
        for modeID in [nil, id] {
            payloads.append(.unlockAttemptCreated(.init(attemptID: id, appID: app, modeID: modeID, strictness: .hard)))
        }
        for quest in QuestType.allCases {
            let ref = EventPayload.QuestRef(questSessionID: id, attemptID: "a", questType: quest)
            payloads += [.questStarted(ref), .questCompleted(ref), .questCancelled(ref), .questExpired(ref)]
        }
        #expect(Set(payloads.map(\.type)) == Set(EventType.allCases))
        for payload in payloads {
            #expect(try payload.json() == Self.foundation(payload.body), "\(payload.type)")
        }
        for reason in [nil, UnlockDenialReason.insufficientCredits] {
            let enabled = reason == nil
            for modeID in [nil, id] {
                let options = AvailableOptions(
                    generatedAt: 1_738_400_000_000, modeID: modeID, modeStrictness: .gentle, appID: app,
                    options: [
                        .credits(
                            enabled: enabled, disabledReason: reason,
                            durations: [
                                .init(minutes: 5, costCredits: 3, enabled: enabled, disabledReason: reason),
                                .init(minutes: 15, costCredits: 8, enabled: true),
                            ]),
                        .quest(
                            enabled: enabled, disabledReason: reason,
                            questTypes: QuestType.allCases.map {
                                .init(questType: $0, enabled: enabled, disabledReason: reason)
                            }),
                        .emergency(enabled: enabled, disabledReason: reason, delaySeconds: 30, unlockMinutes: 5),
                    ])
                #expect(try ModelJSON.encode(options) == Self.foundation(options))
                #expect(try ModelJSON.encode([options]) == Self.foundation([options]))  // nested in a value that does not
            }
        }
    }

    @Test func numbersStringsAndKeysAreWrittenAsJSONEncoderWritesThem() throws {
        let value = JSONValue.object([
            ("a10", .double(10)), ("a9", .double(-0.5)), ("B", .double(1e21)), ("_x", .double(3.25)),
            ("b", .array([.null, .bool(true), .bool(false)])),
            ("text", .string("slash / quote \" backslash \\ tab \t newline \n bell \u{07} é 😀")),
            ("nested", .object([("z", .emptyObject), ("y", .array([]))])),
            ("big", .double(9_007_199_254_740_992)), ("tiny", .double(1e-7)), ("negative zero", .double(-0.0)),
            ("int", .int(10)), ("int64 max", .int(Int.max)), ("a1", .int(-3)),  // members out of order: written sorted
        ])
        #expect(try ModelJSON.encode(value) == Self.foundation(value))
        #expect(try ModelJSON.encode(["k": 1]) == Self.foundation(["k": 1]))
        #expect(try ModelJSON.encode([Int64.max, Int64.min]) == Self.foundation([Int64.max, Int64.min]))
    }

    @Test func aNumberJSONCannotHoldIsRefused() {
        #expect(throws: EncodingError.self) { try ModelJSON.encode(JSONValue.double(.nan)) }
        #expect(throws: EncodingError.self) { try ModelJSON.encode([Double.infinity]) }
    }

    /// Every code point up to U+01FF (the C0 and C1 controls, DEL and their neighbours), alone and
    /// between other text, and an emoji: stored as `JSONEncoder` writes it; printed with DEL and
    /// the C1 controls escaped too (no raw byte of them left), and read back to the same string.
    @Test func everyControlCharacterIsEscapedAsStoredAndAsPrinted() throws {
        let scalars = (0...0x1FF).compactMap(Unicode.Scalar.init)
        let texts = scalars.map { String($0) } + scalars.map { "a\($0)b\u{C2}\($0)" } + ["😀\u{9B}\u{7F}", "\u{C2}", "é"]
        for text in texts {
            let value = JSONValue.string(text)
            #expect(try ModelJSON.encode(value) == Self.foundation(text), "\(text.unicodeScalars.map(\.value))")
            let printed = value.description
            #expect(!printed.unicodeScalars.contains { $0.value == 0x7F || (0x80...0x9F).contains($0.value) || $0.value < 0x20 })
            #expect(try JSONDecoder().decode(String.self, from: Data(printed.utf8)) == text)
        }
    }

    /// One value, two texts: printed in the order built (`1.0`, DEL escaped), stored sorted (`1`,
    /// as `JSONEncoder`); read back sorted, a whole number as an integer; equal when printed alike.
    @Test func aValueIsPrintedInOrderAndStoredSorted() throws {
        let value = JSONValue.object([("b", .double(1)), ("a", .string("\u{7F}")), ("c", .int(2))])
        #expect(value.description == #"{"b":1.0,"a":"\u007f","c":2}"#)
        #expect(try ModelJSON.encode(value) == "{\"a\":\"\u{7F}\",\"b\":1,\"c\":2}")
        #expect(try ModelJSON.encode(value) == Self.foundation(value))
        #expect(value != .object([("a", .string("\u{7F}")), ("b", .double(1)), ("c", .int(2))]))
        #expect(JSONValue.int(1) != .double(1) && JSONValue.double(.nan) == .null)
        let read = try ModelJSON.decode(JSONValue.self, from: #"{"b":1.0,"a":-0,"c":2.5}"#, entity: "t", field: "f")
        #expect(read == .object([("a", .double(-0.0)), ("b", .int(1)), ("c", .double(2.5))]))
    }
}
