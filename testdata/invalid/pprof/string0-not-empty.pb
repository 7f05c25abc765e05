

""
*2x2samples2count2main