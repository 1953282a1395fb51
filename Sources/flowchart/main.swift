print("flowchart placeholder")
