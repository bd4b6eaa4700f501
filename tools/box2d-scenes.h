// Box2D v3's benchmark scenes by name, for the tools that drive them
// (box2d-lockstep.c, box2d-profile.c, box2d-counts.c), with the step
// function its `benchmark` app calls before each step of the scripted ones.
#pragma once

#include "benchmarks.h"
#include "box2d/box2d.h"

#include <stdbool.h>
#include <string.h>

typedef float BenchmarkStepFcn( b2WorldId worldId, int stepIndex );

// Builds the scene `name` in `world` and sets `*stepFcn` to its step
// function (NULL for a scene without one). False for an unknown name.
static bool CreateBenchmark( const char* name, b2WorldId world, BenchmarkStepFcn** stepFcn )
{
	static const struct
	{
		const char* name;
		void ( *create )( b2WorldId );
		BenchmarkStepFcn* step;
	} scenes[] = {
		{ "joint_grid", CreateJointGrid, NULL },	 { "large_pyramid", CreateLargePyramid, NULL },
		{ "many_pyramids", CreateManyPyramids, NULL }, { "rain", CreateRain, StepRain },
		{ "spinner", CreateSpinner, StepSpinner },	 { "smash", CreateSmash, NULL },
		{ "tumbler", CreateTumbler, NULL },			 { "washer", CreateWasher, NULL },
		{ "junkyard", CreateJunkyard, StepJunkyard }, { "compounds", CreateCompounds, NULL },
	};
	for ( size_t i = 0; i < sizeof( scenes ) / sizeof( scenes[0] ); ++i )
	{
		if ( strcmp( name, scenes[i].name ) == 0 )
		{
			scenes[i].create( world );
			*stepFcn = scenes[i].step;
			return true;
		}
	}
	return false;
}
