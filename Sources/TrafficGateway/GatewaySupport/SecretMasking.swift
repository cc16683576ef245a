/// URLs as they may be printed: a password in the authority (`user:secret@host`) and the values of
/// query parameters that hold secrets (`client_secret`, `api_key`, `token`, `password`…) become
/// `****`. Every URL the gateway prints (errors, `config show`, logs) goes through it.
public enum SecretMasking {
    /// Query parameter names (lower-cased) whose values are secrets.
    static let secretNames = ["secret", "password", "passwd", "token", "key", "signature", "auth"]

    /// `url` with its secrets masked.
    public static func url(_ url: String) -> String {
        var out = url
        // user:password@ in the authority.
        if let scheme = out.firstRange(of: "://") {
            let authorityEnd = out[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? out.endIndex
            if let at = out[scheme.upperBound..<authorityEnd].lastIndex(of: "@"),
               let colon = out[scheme.upperBound..<at].firstIndex(of: ":") {
                out.replaceSubrange(out.index(after: colon)..<at, with: "****")
            }
        }
        // Secret-looking query parameters.
        guard let q = out.firstIndex(of: "?") else { return out }
        let end = out[q...].firstIndex(of: "#") ?? out.endIndex
        let query = out[out.index(after: q)..<end].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let eq = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<eq].lowercased()
            return secretNames.contains(where: { name.contains($0) }) ? String(pair[...eq]) + "****" : String(pair)
        }
        return String(out[...q]) + query.joined(separator: "&") + String(out[end...])
    }
}
