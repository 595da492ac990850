/// A fixed-size buffer owned by a reference and used through its pointer. The simulator's
/// inner loops read and write cards and daily sums this way: no copy-on-write check and no
/// exclusivity bookkeeping per access, and disjoint parts written from several threads at once
/// (which is the caller's duty to keep disjoint).
final class OwnedBuffer<Element>: @unchecked Sendable {
    let pointer: UnsafeMutableBufferPointer<Element>

    init(repeating value: Element, count: Int) {
        pointer = .allocate(capacity: max(count, 0))
        pointer.initialize(repeating: value)
    }

    /// `count` elements made in place, in order.
    init(count: Int, _ element: (Int) -> Element) {
        pointer = .allocate(capacity: max(count, 0))
        for index in 0..<max(count, 0) { (pointer.baseAddress! + index).initialize(to: element(index)) }
    }

    init(_ elements: [Element]) {
        pointer = .allocate(capacity: elements.count)
        _ = pointer.initialize(from: elements)
    }

    deinit {
        _ = pointer.deinitialize()
        pointer.deallocate()
    }

    var count: Int { pointer.count }

    subscript(index: Int) -> Element {
        get { pointer[index] }
        set { pointer[index] = newValue }
        _modify { yield &pointer[index] }
    }
}
