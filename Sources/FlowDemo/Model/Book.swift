/// One book of the demo's catalog, as shipped in `Resources/catalog.json`.
public struct Book: Codable, Equatable, Hashable, Sendable, Identifiable {
    /// A stable identifier, unique in the catalog.
    public let id: Int
    /// The title.
    public let title: String
    /// The author's name.
    public let author: String
    /// The year of first publication; negative for years BC.
    public let year: Int
    /// A one-word genre such as `novel` or `drama`.
    public let genre: String
    /// A one-line summary.
    public let summary: String

    /// Creates a book.
    public init(
        id: Int, title: String, author: String, year: Int, genre: String, summary: String
    ) {
        self.id = id
        self.title = title
        self.author = author
        self.year = year
        self.genre = genre
        self.summary = summary
    }

    /// The year as people write it: `1813`, or `c. 700 BC` for ancient works.
    public var yearText: String {
        year < 0 ? "c. \(-year) BC" : String(year)
    }

    /// Whether `text` occurs in the title, the author or the genre, ignoring case.
    public func matches(_ text: String) -> Bool {
        let needle = text.lowercased()
        return title.lowercased().contains(needle) || author.lowercased().contains(needle)
            || genre.lowercased().contains(needle)
    }
}
