import sys
print("recalculated", sys.argv[1:])
