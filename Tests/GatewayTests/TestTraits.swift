import Foundation
import Testing

/// How the suites are told apart (issue 53): a developer runs the fast ones alone with
///
///     SKYGATE_FAST=1 swift test
///
/// which skips every suite tagged `.process` (it starts gatewayd or another program: a broker, a
/// browser, a package root, an HTTP peer of its own). CI runs them all.
extension Tag {
    /// Starts a process or a real peer: gatewayd, mosquitto, chromium, debootstrap, an HTTP or TCP server.
    @Tag static var process: Self
}

extension Trait where Self == ConditionTrait {
    /// Skipped with SKYGATE_FAST=1 (the fast run), run otherwise.
    static var slow: Self {
        .enabled(if: ProcessInfo.processInfo.environment["SKYGATE_FAST"] == nil,
                 "a process suite: skipped with SKYGATE_FAST=1 (run them all without it)")
    }
}
