import ArgumentParser
@main struct Rulesrun: ParsableCommand {
    func run() throws { print("rulesrun") }
}
