"""What the benches share: ``credence serve`` as a subprocess (``api_server``) and the VitaminC
research corpus (``vitaminc``). The benches never import the tests' support code."""
