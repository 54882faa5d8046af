import sys

from arimaa_ray.bridge import main

sys.exit(main())
