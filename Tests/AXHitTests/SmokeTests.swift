import Testing
@testable import AXHit

@Test func libraryLinks() {
    #expect(CGAffineTransform.identity.isIdentity)
}
