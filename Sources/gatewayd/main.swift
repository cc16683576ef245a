import ArgumentParser
print("hi")
