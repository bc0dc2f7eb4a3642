import RulesSim
import Testing

@Test func theModuleLinks() {
    #expect(String(describing: RulesSim.self) == "RulesSim")
}
