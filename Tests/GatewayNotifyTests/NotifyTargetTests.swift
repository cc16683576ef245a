import Testing
@testable import GatewayNotify

/// The targets' URLs (Apprise's schemes) as a person writes them, and what is wrong with a bad one.
@Suite struct NotifyTargetTests {
    @Test func ntfyWithTokenAndPort() throws {
        let t = try NotifyTarget(url: "ntfys://tk_abc123@ntfy.example.org:8443/hangar-n123ab")
        #expect(t.kind == .ntfy && t.secure && t.host == "ntfy.example.org" && t.port == 8443)
        #expect(t.path == "/hangar-n123ab" && t.token == "tk_abc123")
        #expect(t.description == "ntfys://****@ntfy.example.org:8443/hangar-n123ab")
        let plain = try NotifyTarget(url: "ntfy://ntfy.sh/skygate-test")
        #expect(plain.port == 80 && !plain.secure && plain.token == nil)
    }

    @Test func mailWithCredentialsRecipientsAndDefaults() throws {
        let t = try NotifyTarget(url: "mailto://pilot%40example.org:s3cr%3At@smtp.example.org?to=a@b.org,c@d.org&from=skygate@example.org")
        #expect(t.kind == .mail && !t.secure && t.port == 587)
        #expect(t.user == "pilot@example.org" && t.password == "s3cr:t")
        #expect(t.to == ["a@b.org", "c@d.org"] && t.sender == "skygate@example.org")
        #expect(!t.description.contains("s3cr"))
        let relay = try NotifyTarget(url: "mailto://192.168.1.5?to=me@home.lan")
        #expect(relay.port == 25 && relay.user == nil && relay.sender == "skygate@192.168.1.5")
        #expect(try NotifyTarget(url: "mailtos://u:p@smtp.gmail.com?to=x@y.com").port == 465)
    }

    @Test func webhookWithSecret() throws {
        let t = try NotifyTarget(url: "json://homeassistant.local:8123/api/webhook/skygate?secret=hunter2")
        #expect(t.kind == .json && t.port == 8123 && t.path == "/api/webhook/skygate" && t.secret == "hunter2")
        #expect(t.description == "json://homeassistant.local:8123/api/webhook/skygate?secret=****")
    }

    @Test(arguments: [
        ("ntfy.sh/topic", "not a URL"),
        ("gotify://host/x", "not one of ntfy://"),
        ("ntfy://ntfy.sh/", "no topic"),
        ("ntfy://ntfy.sh/bad topic!", "no topic"),
        ("mailto://smtp.example.org", "no recipient"),
        ("mailto://smtp.example.org?to=nobody", "'nobody' is not an e-mail address"),
        ("json://host:99999/x", "port '99999'"),
        ("json://:80/x", "no host"),
        ("json://host/x?sekret=1", "'sekret' is not a setting"),
    ])
    func badTargetsAreNamed(url: String, words: String) {
        #expect(throws: NotifyError.self) { try NotifyTarget(url: url) }
        do { _ = try NotifyTarget(url: url) } catch { #expect(error.description.contains(words), "\(error)") }
    }

    @Test func hmacMatchesRFC4231() {
        // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?".
        let mac = Delivery.hmacSHA256(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8))
        #expect(mac.map(Delivery.hex) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func mailDateAndHeaders() {
        // 2026-12-05 is a Saturday.
        #expect(Delivery.rfc5322Date(1_796_495_100) == "Sat, 05 Dec 2026 18:25:00 +0000")
        #expect(Delivery.rfc5322Date(0) == "Thu, 01 Jan 1970 00:00:00 +0000")
        #expect(Delivery.headerValue("New TFR: SFC–4000 ft") == "=?UTF-8?B?TmV3IFRGUjogU0ZD4oCTNDAwMCBmdA==?=")
        #expect(Delivery.headerValue("plain\r\nBcc: x") == "plain  Bcc: x")
    }
}
