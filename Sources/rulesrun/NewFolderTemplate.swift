import BuiltInDefaults
import RulesSim

/// The files `rulesrun new` writes: a rule folder extending the built-in defaults (`@default`)
/// that changes one knob (pricing.lua's `credit_costs`: a 60-minute unlock for 80 credits besides
/// the default lengths, which keep their prices, so that the inherited tests still pass), with a
/// unit test of that knob, a scenario, a property, a persona and a README. Kept here, in the
/// binary: nothing is read from a checkout.
struct NewFolderTemplate {
    /// The folder as the user named it.
    let folder: String

    /// The folder as one shell word, for the commands the README shows.
    var shown: String { ShellQuote.quote(folder) }

    /// The persona the folder ships (`personas/regular.lua`).
    static let persona = "regular"

    /// Each file's name in the folder and its text, in the order they are written.
    var files: [(name: String, text: String)] {
        [
            ("extends", BuiltInDefaults.name + "\n"),
            ("pricing.lua", pricing),
            ("tests/pricing_test.lua", unitTest),
            ("tests/hour-unlock.jsonl", scenario),
            ("tests/pricing_properties_test.lua", property),
            ("personas/\(Self.persona).lua", personaFile),
            ("README.md", readme),
        ]
    }

    var pricing: String {
        """
        -- What unlocks cost, changed from the built-in default rules. Every file this folder does not
        -- hold comes from the folder its `extends` file names (@default: the built-in rules, which
        -- `rulesrun validate @default` checks and `rulesrun test @default` tests); `base` is that
        -- folder's pricing.lua, which this file changes. docs/rules.md lists every knob and function.
        local M = base

        -- The gate also offers a 60-minute unlock, for 80 credits (the default offers 5, 15 and 30
        -- minutes, for 10, 25 and 45, which stay). The host checks that the costs increase strictly
        -- with the length.
        M.credit_costs = {
          { minutes = 5, credits = 10 },
          { minutes = 15, credits = 25 },
          { minutes = 30, credits = 45 },
          { minutes = 60, credits = 80 },
        }

        return M

        """
    }

    var unitTest: String {
        """
        -- Unit tests of pricing.lua (rulesrun test \(shown)): each global function whose name starts
        -- with test_ is a test. The tests of @default run too, against this folder's rules.

        -- The record the engine passes price when the gate opens, for an unlock of `minutes`.
        local function unlock(minutes)
          return records.price_context { minutes = minutes }
        end

        -- The changed knob: an hour costs 80 credits; the shorter unlocks cost what they did.
        function test_prices_of_the_four_lengths()
          expect_eq(pricing.price(unlock(60)), 80)
          expect_eq(pricing.price(unlock(30)), 45)
          expect_error(function() pricing.price(unlock(90)) end, "no unlock of 90 minutes")
        end

        """
    }

    var scenario: String {
        """
        # A scenario (rulesrun test \(shown)): replay lines, each with what it must give ("expect": a path in
        # the output line and its value). The gate offers the hour as a fourth length, at 80 credits, which the
        # 5 credits of one habit completion do not buy: choosing it is denied, and the balance is kept.
        {"at": "2026-03-02T08:00:00Z", "type": "settings", "timezone": "UTC"}
        {"at": "2026-03-02T08:00:10Z", "type": "distracting_apps", "apps": ["android:com.instagram.android"]}
        {"at": "2026-03-02T08:00:20Z", "type": "mode", "mode": "focus", "strictness": "GENTLE", "windows": [{"days": [1, 2, 3, 4, 5, 6, 7], "start": "09:00", "end": "17:00"}]}
        {"at": "2026-03-02T08:00:40Z", "type": "earned_habit", "habit": "stretch", "reward_credits": 5}
        {"at": "2026-03-02T08:05:00Z", "type": "earned_habit_completion", "habit": "stretch", "expect": {"state.earned.credit_balance": 5}}
        {"at": "2026-03-02T09:30:00Z", "type": "unlock_open", "app": "android:com.instagram.android", "expect": {"decisions.unlock_gate.available_options.options[1].durations[4].minutes": 60, "decisions.unlock_gate.available_options.options[1].durations[4].enabled": false}}
        {"at": "2026-03-02T09:30:20Z", "type": "unlock_choose", "app": "android:com.instagram.android", "option": "CREDITS_UNLOCK", "minutes": 60, "expect": {"decisions.unlock.outcome": "DENIED", "state.earned.credit_balance": 5}}

        """
    }

    var property: String {
        """
        -- A property (rulesrun test \(shown)): each prop_ function gets the cases its entry in `cases`
        -- draws (here every situation the gate prices in), and must hold for all of them.
        cases = {
          prop_an_hour_costs_less_a_minute_than_half_an_hour = gen.price_context(),
        }

        -- Whatever the hour, app, mode or balance, a minute of the hour costs no more than a minute of
        -- the half hour: the longer unlock is never the worse deal.
        function prop_an_hour_costs_less_a_minute_than_half_an_hour(ctx)
          ctx.minutes = 60
          local hour = pricing.price(ctx)
          ctx.minutes = 30
          expect_true(hour / 60 <= pricing.price(ctx) / 30, "the hour's minute costs no more")
          return true
        end

        """
    }

    var personaFile: String {
        """
        -- \(Self.persona): a persona (rulesrun simulate 30d --rules \(shown) --persona \(Self.persona)), a model of
        -- your users, validated like a rule file. It is found by name in the rule folder's personas/.
        -- Every field is described in docs/simulate.md ("Personas").
        return {
          description = "Commits most days, and unlocks the distracting apps with the credits its habits earn.",
          settings = {
            timezone = "Europe/Paris",
            commitment_deadline = "09:00",
            checkin_window_close = "22:00",
            notifications_enabled = true,
            personality_mode = "PROFESSIONAL",
          },
          paid_share = 0.2,
          commit = 0.9,
          commit_lead_minutes = { 20, 120 },
          first_look_minutes = { 300, 720 },
          answer = { yes = 0.8, no = 0.1 },
          reminder_response = { 0.6, 0.7, 0.75, 0.8 },
          reminder_yes_share = 0.8,
          lost_streak = { min_streak = 5, days = 3, commit = -0.05, yes = -0.05 },
          shield = 0.9,
          habits = { { task = "walk", rate = 0.8 } },
          miga = { opens_per_day = 1, exit = 0.4, deepen = 0.2 },
          earned = {
            share = 1,
            apps = { "android:com.instagram.android" },
            modes = {
              { name = "work", strictness = "STRICT", priority = 1,
                windows = { { days = { 1, 2, 3, 4, 5 }, from = "09:00", to = "17:00" } } },
            },
            qr_key = 0.5,
            -- Two habits worth 20 and 50 credits: on a day with both, the hour is affordable.
            habits = { { name = "stretch", reward_credits = 20, rate = 0.8 }, { name = "run", reward_credits = 50, rate = 0.5 } },
            habits_together = 0,
            focus = { sessions_per_day = 1, minutes = { 25, 50 }, quit_early = 0.1, hours = { 8, 20 }, strict = true },
            urges = { per_day = 4, hours = { 7, 23 } },
            gate = {
              credits = 0.7, quest = 0.2, emergency = 0.02,
              credit_minutes = { 60, 15, 5 },
              quest_types = { "QR_SCAN", "BREATHING" },
              insist = 0.03,
            },
            quest = { complete = 0.9, fail = 0.04, cancel = 0.02, minutes = { 1, 4 } },
          },
        }

        """
    }

    var readme: String {
        """
        # \(folder): our rules

        A rule folder written by `rulesrun new`. It holds only what it changes; every other file comes
        from the built-in default rules, which `extends` names (`@default`).

        | file | what it is |
        |---|---|
        | `extends` | the folder this one extends: `@default`, the built-in rules (or a path) |
        | `pricing.lua` | the one change: the gate also offers a 60-minute unlock, for 80 credits |
        | `tests/pricing_test.lua` | a unit test of that change (`test_` functions) |
        | `tests/hour-unlock.jsonl` | a scenario: events, and what each must give (`expect`) |
        | `tests/pricing_properties_test.lua` | a property, checked on every situation the gate prices |
        | `personas/\(Self.persona).lua` | a persona: a model of our users for `simulate` |

        Next:

        ```sh
        rulesrun validate \(shown)                       # checks and proves the rules
        rulesrun test \(shown) --coverage                # our tests and those of @default
        rulesrun simulate 30d --rules \(shown) --persona \(Self.persona)
        rulesrun replay EVENTS.jsonl --rules \(shown) --explain text   # the rule calls of each event
        rulesrun compare @default \(shown) --persona \(Self.persona)
        ```

        """
    }
}
