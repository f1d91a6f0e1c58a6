// The AXHit library: element trees, screen space, hit-testing, activation and
// audits. Its geometry layer (points, transforms, paths, polygons) comes along.
@_exported import AXGeometry
