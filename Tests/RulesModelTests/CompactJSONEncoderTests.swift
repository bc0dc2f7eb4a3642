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

    @Test func numbersStringsAndKeysAreWrittenAsJSONEncoderWritesThem() throws {
        let value = JSONValue.object([
            "a10": .number(10), "a9": .number(-0.5), "B": .number(1e21), "_x": .number(3.25), "b": .array([.null, .bool(true), .bool(false)]),
            "text": .string("slash / quote \" backslash \\ tab \t newline \n bell \u{07} é 😀"), "nested": .object(["z": .object([:]), "y": .array([])]),
            "big": .number(9_007_199_254_740_993), "tiny": .number(1e-7), "negative zero": .number(-0.0),
        ])
        #expect(try ModelJSON.encode(value) == Self.foundation(value))
        #expect(try ModelJSON.encode(["k": 1]) == Self.foundation(["k": 1]))
        #expect(try ModelJSON.encode([Int64.max, Int64.min]) == Self.foundation([Int64.max, Int64.min]))
    }

    @Test func aNumberJSONCannotHoldIsRefused() {
        #expect(throws: EncodingError.self) { try ModelJSON.encode(JSONValue.number(.nan)) }
        #expect(throws: EncodingError.self) { try ModelJSON.encode([Double.infinity]) }
    }
}
