"""Records on other machines: remote roots read through fsspec (ssh, s3, and any other
protocol installed), copied into a local mirror that the local index reads."""
