import AXHit
print("axhit")
