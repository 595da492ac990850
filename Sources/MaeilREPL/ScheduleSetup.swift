import MaeilCore

/// The preset `maeil schedule` replays a card under: a deck's, or the defaults of a scheduler,
/// with the settings given on top, each checked where its limits live (`PresetKey`), and
/// refused where it would not change the replay.
package enum ScheduleSetup {
    /// `named` are the command's own options (key, option name, value); `assignments` are
    /// `--set KEY=VALUE` words, a key written as in a deck file (`starting_ease`) or as an
    /// option (`starting-ease`).
    package static func preset(deck: Preset?, scheduler: SchedulerKind?, named: [(key: PresetKey, option: String, value: String?)],
                               assignments: [String], fuzz: Bool) throws(PresetKey.Problem) -> Preset {
        var preset = deck ?? Preset(name: "schedule", scheduler: SchedulerSettings(kind: scheduler ?? .ankiSM2))
        if let scheduler { preset.scheduler.kind = scheduler }
        let kind = preset.scheduler.kind
        var given = named.compactMap { entry in entry.value.map { (entry.key, "--" + entry.option, $0) } }
        for assignment in assignments {
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "-", with: "_")
            guard parts.count == 2, let key = PresetKey(rawValue: name) else {
                throw PresetKey.Problem(description: "--set takes KEY=VALUE, a key among " + PresetKey.allCases.map(\.rawValue).joined(separator: ", "))
            }
            given.append((key, "--set \(name)", parts[1]))
        }
        for (key, option, value) in given {
            guard key != .scheduler else { throw PresetKey.Problem(description: "\(option): give the scheduler with --scheduler") }
            guard key.changesSchedule(under: kind) else {
                let why = key.changesSchedule(under: .ankiSM2) || key.changesSchedule(under: .fsrs)
                    ? "does not change a \(kind.rawValue) schedule" : "shapes a day's queue, not one card's schedule"
                throw PresetKey.Problem(description: "\(option) \(why)")
            }
            if key == .loadBalancing || key == .easyDays, !fuzz {
                throw PresetKey.Problem(description: "\(option) picks a day within the fuzz range: give --fuzz SEED too")
            }
            do {
                try key.set(.text(value), on: &preset)
            } catch {
                throw PresetKey.Problem(description: "\(option): \(error.description)")
            }
        }
        return preset
    }
}
