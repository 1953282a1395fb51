import FlowDemo

print("flowdemo placeholder")
