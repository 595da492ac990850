/// Anki's image occlusion cards in words. Anki draws masks over a picture on a canvas; its
/// note keeps each mask as a cloze deletion of a shape,
/// `{{c2::image-occlusion:ellipse:left=.5:top=.5:width=.2:height=.2:oi=1}}`, which a terminal
/// would print as that text. Here a card says which mask it asks about and where it lies on
/// the picture (which `o` opens); a text mask's answer is its text.
package enum ImageOcclusion {
    package struct Mask: Equatable, Sendable {
        package var number: Int
        package var shape: String
        package var properties: [String: String]

        /// Anki's names for the shapes, in words.
        var kind: String {
            switch shape {
            case "rect": "rectangle"
            case "ellipse": "ellipse"
            case "polygon": "polygon"
            case "text": "text"
            default: shape
            }
        }

        /// The middle of the mask as fractions of the picture's width and height, when the
        /// note gives them so (older notes gave pixels, which say nothing without the picture).
        var centre: (x: Double, y: Double)? {
            func number(_ key: String) -> Double? { properties[key].flatMap(Double.init) }
            if shape == "polygon", let points = properties["points"] {
                let pairs = points.split(separator: " ").compactMap { pair -> (Double, Double)? in
                    let parts = pair.split(separator: ",").compactMap { Double($0) }
                    return parts.count == 2 ? (parts[0], parts[1]) : nil
                }
                guard let xs = pairs.map(\.0).minAndMax, let ys = pairs.map(\.1).minAndMax else { return nil }
                return Self.fractions((xs.min + xs.max) / 2, (ys.min + ys.max) / 2)
            }
            guard let left = number("left"), let top = number("top") else { return nil }
            return Self.fractions(left + (number("width") ?? 0) / 2, top + (number("height") ?? 0) / 2)
        }

        private static func fractions(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
            (0...1).contains(x) && (0...1).contains(y) ? (x, y) : nil
        }

        /// "the rectangle at the upper left", "the ellipse in the middle".
        var placed: String {
            guard let centre else { return "the \(kind)" }
            let row = centre.y < 1.0 / 3 ? "upper" : centre.y > 2.0 / 3 ? "lower" : ""
            let column = centre.x < 1.0 / 3 ? "left" : centre.x > 2.0 / 3 ? "right" : ""
            switch (row, column) {
            case ("", ""): return "the \(kind) in the middle"
            case ("", _): return "the \(kind) at the \(column)"
            case (_, ""): return "the \(kind) at the \(row == "upper" ? "top" : "bottom")"
            default: return "the \(kind) at the \(row) \(column)"
            }
        }
    }

    static let marker = "image-occlusion:"

    /// The masks of an occlusion field, in order; nil when it holds a deletion of another kind.
    package static func masks(in text: String) -> [Mask]? {
        guard text.contains(marker) else { return nil }
        var masks: [Mask] = []
        for node in ClozeNode.parse(text) {
            guard case let .deletion(number, children, _) = node else { continue }
            let content = children.map(\.shown).joined()
            guard content.hasPrefix(marker) else { return nil }
            let parts = content.dropFirst(marker.count).split(separator: ":").map(String.init)
            guard let shape = parts.first else { return nil }
            var properties: [String: String] = [:]
            for part in parts.dropFirst() {
                let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
                if pair.count == 2 { properties[pair[0]] = pair[1] }
            }
            masks.append(Mask(number: number, shape: shape, properties: properties))
        }
        return masks.isEmpty ? nil : masks
    }

    /// Card `ordinal` of an occlusion note: the masks it hides, where, and a text mask's words.
    static func blanks(_ masks: [Mask], ordinal: Int) -> Blanks {
        let numbers = Set(masks.map(\.number)).sorted()
        let asked = masks.filter { $0.number == ordinal }
        let position = (numbers.firstIndex(of: ordinal) ?? 0) + 1
        let places = asked.map(\.placed)
        let which = "Mask \(position) of \(numbers.count)"
        let place = places.isEmpty ? "none" : places.joined(separator: ", ")
        let answers = asked.compactMap { $0.shape == "text" ? $0.properties["text"] : nil }
        let answer = "\(which), \(place): " + (answers.isEmpty ? "on the picture (o opens it)" : answers.joined(separator: ", "))
        return Blanks(question: "\(which) hidden: \(place) (o opens the picture)", answerText: answer, answers: answers)
    }
}

private extension Array where Element == Double {
    var minAndMax: (min: Double, max: Double)? {
        guard let low = self.min(), let high = self.max() else { return nil }
        return (low, high)
    }
}
