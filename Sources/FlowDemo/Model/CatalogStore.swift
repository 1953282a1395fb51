import Foundation

/// The books the list screen shows: a read-only store, provided to the whole tree through
/// ``CatalogStoreKey``.
///
///     let store = try CatalogStore.shipped()
///     store.books.count          // 64
///     store.books(matching: "dickens").map(\.title)
public struct CatalogStore: Sendable, Equatable {
    /// Every book, in catalog order.
    public let books: [Book]

    /// Creates a store holding `books`.
    public init(books: [Book]) {
        self.books = books
    }

    /// The catalog shipped with the demo as the `catalog.json` resource.
    ///
    /// - Throws: An error if the resource is missing or is not valid catalog JSON.
    public static func shipped() throws -> CatalogStore {
        guard let url = Bundle.module.url(forResource: "catalog", withExtension: "json") else {
            throw CatalogError.resourceMissing
        }
        return try decode(Data(contentsOf: url))
    }

    /// Decodes a catalog in the shipped format: `{"books": [{"id", "title", "author",
    /// "year", "genre", "summary"}, …]}`.
    ///
    /// - Throws: A `DecodingError` for malformed JSON, ``CatalogError/duplicateID(_:)`` if two
    ///   books share an identifier.
    public static func decode(_ data: Data) throws -> CatalogStore {
        struct File: Decodable { let books: [Book] }
        let books = try JSONDecoder().decode(File.self, from: data).books
        var seen = Set<Int>()
        for book in books where !seen.insert(book.id).inserted {
            throw CatalogError.duplicateID(book.id)
        }
        return CatalogStore(books: books)
    }

    /// The books whose title, author or genre contains `text` (ignoring case), in catalog
    /// order; every book when `text` is empty.
    public func books(matching text: String) -> [Book] {
        text.isEmpty ? books : books.filter { $0.matches(text) }
    }
}

/// Why the catalog could not be loaded.
public enum CatalogError: Error, Equatable, CustomStringConvertible {
    /// `catalog.json` is not in the module's resources.
    case resourceMissing
    /// Two books share `id`.
    case duplicateID(Int)
    /// No book has `id`.
    case unknownBook(Int)

    public var description: String {
        switch self {
        case .unknownBook(let id):
            return "the catalog has no book \(id)"
        case .resourceMissing:
            return "catalog.json is missing from the FlowDemo resources; rebuild the package"
        case .duplicateID(let id):
            return "catalog.json has two books with id \(id); ids must be unique"
        }
    }
}
