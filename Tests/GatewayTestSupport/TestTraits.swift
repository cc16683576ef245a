import Foundation
import GatewaySupport
import Testing

/// How the suites are told apart (issue 53): a developer runs the fast ones alone with
///
///     SKYGATE_FAST=1 swift test
///
/// which skips every suite tagged `.process` (it starts gatewayd or another program: a broker, a
/// browser, a package root, an HTTP peer of its own). CI runs them all.
extension Tag {
    /// Starts a process or a real peer: gatewayd, mosquitto, chromium, debootstrap, an HTTP or TCP server.
    @Tag package static var process: Self
}

extension Trait where Self == ConditionTrait {
    /// Skipped with SKYGATE_FAST=1 (the fast run), run otherwise.
    package static var slow: Self {
        .enabled(if: ProcessInfo.processInfo.environment["SKYGATE_FAST"] == nil,
                 "a process suite: skipped with SKYGATE_FAST=1 (run them all without it)")
    }
}

/// Runs a test on a thread of its own rather than on the cooperative pool: for a long synchronous
/// test (gatewayd or a broker run and waited for, a minute of waits), which would otherwise hold
/// one of the pool's threads (two on a 2-core machine) for its whole run, while the tasks of every
/// other suite, and the runner's own (its time limits among them), wait behind it.
package struct OwnThreadTrait: TestTrait, TestScoping {
    package func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(QueueExecutor(label: "skygate.test." + test.name)) { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// The test runs on a thread of its own (`OwnThreadTrait`).
    package static var ownThread: Self { Self() }
}
