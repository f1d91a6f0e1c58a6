import AXHit
print("axhit-bench")
